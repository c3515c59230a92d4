//! The processes of a run connect before the engine starts, and shake hands: each says
//! which process it is, how many processes and workers it counts, which floe it is and what
//! it runs (its [`RunIdentity`]). A process that meets another job, another layout, another
//! floe or a second process of the same number refuses it, and both say what differs; only
//! processes that agree hand their connections to timely dataflow.
//!
//! Each process connects to every lower-numbered one and listens for every higher-numbered
//! one, as timely does; a connecting process says hello first, the listening one answers
//! with its verdict and its own hello.

use super::Layout;
use floe::mem::RunIdentity;
use floe::Error;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// The first bytes of a hello.
const MAGIC: &[u8; 8] = b"FLOEHELO";
/// The version of the handshake and of what travels after it: a process of another one is
/// refused before a rank is sent, whatever its package version says. 2: ranks travel packed
/// (`cluster::packed`), where 1 sent each in 8 bytes; the two would misread each other's
/// ranks.
const PROTOCOL: u32 = 2;
/// The longest hello read (an identity is a few hundred bytes).
const MAX_HELLO: u32 = 1 << 20;

/// What a process says when it connects.
#[derive(Clone, Debug, PartialEq)]
struct Hello {
    process: u32,
    processes: u32,
    workers: u32,
    version: String,
    identity: RunIdentity,
}

impl Hello {
    fn of(layout: &Layout, identity: &RunIdentity) -> Hello {
        Hello {
            process: layout.process as u32,
            processes: layout.processes as u32,
            workers: layout.workers as u32,
            // the version and the sources it was built from (`build.rs`): two builds of one
            // version from other sources may rank or share positions otherwise
            version: crate::args::VERSION.to_string(),
            identity: identity.clone(),
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        for x in [PROTOCOL, self.process, self.processes, self.workers] {
            b.extend(x.to_le_bytes());
        }
        for s in [self.version.as_bytes(), &self.identity.to_bytes()] {
            b.extend((s.len() as u32).to_le_bytes());
            b.extend(s);
        }
        b
    }

    fn read(s: &mut TcpStream, from: &str) -> Result<Hello, Error> {
        Hello::read_any(s, from)?.map_err(|p| other_protocol(from, p))
    }

    /// A hello, or `Err(protocol)` when a floe of another protocol said its first words.
    fn read_any(s: &mut TcpStream, from: &str) -> Result<Result<Hello, u32>, Error> {
        let bad = |why: &str| Error::invalid(format!("{from}: {why}"));
        let io = |e: std::io::Error| {
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) {
                bad("it connected but said nothing (is it a floe process of this run?)")
            } else {
                bad(&format!("the connection broke during the handshake ({e})"))
            }
        };
        let mut head = [0u8; 24];
        s.read_exact(&mut head).map_err(io)?;
        if &head[..8] != MAGIC {
            return Err(bad("it is not a floe process (it answered something else)"));
        }
        let word = |i: usize| u32::from_le_bytes(head[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        if word(0) != PROTOCOL {
            return Ok(Err(word(0)));
        }
        let mut text = || -> Result<Vec<u8>, Error> {
            let mut n = [0u8; 4];
            s.read_exact(&mut n).map_err(io)?;
            let n = u32::from_le_bytes(n);
            if n > MAX_HELLO {
                return Err(bad("its hello is too long"));
            }
            let mut b = vec![0u8; n as usize];
            s.read_exact(&mut b).map_err(io)?;
            Ok(b)
        };
        let version = String::from_utf8_lossy(&text()?).into_owned();
        let identity = serde_json::from_slice(&text()?)
            .map_err(|e| bad(&format!("its identity does not read ({e})")))?;
        Ok(Ok(Hello {
            process: word(1),
            processes: word(2),
            workers: word(3),
            version,
            identity,
        }))
    }

    /// What differs between this process's hello and another's: empty when they belong to
    /// one run.
    fn differences(&self, other: &Hello) -> Vec<String> {
        let there = format!("at process {}", other.process);
        let mut d = Vec::new();
        if self.version != other.version {
            d.push(format!(
                "floe {} here, {} {there} (run the same floe, built from the same sources, \
                 everywhere)",
                self.version, other.version
            ));
        }
        if self.processes != other.processes {
            d.push(format!(
                "--processes: {} here, {} {there}",
                self.processes, other.processes
            ));
        }
        if self.workers != other.workers {
            d.push(format!(
                "--workers: {} here, {} {there}",
                self.workers, other.workers
            ));
        }
        let mine = RunIdentity {
            processes: 0,
            workers: 0,
            ..self.identity.clone()
        };
        let theirs = RunIdentity {
            processes: 0,
            workers: 0,
            ..other.identity.clone()
        };
        d.extend(mine.differences(&theirs, "here", &there));
        d
    }
}

/// The listener's verdict on a hello.
const WELCOME: u8 = 0;
const TAKEN: u8 = 1;

/// The refusal of another process's hello, naming every difference.
fn refusal(layout: &Layout, other: &Hello, d: &[String]) -> Error {
    Error::invalid(format!(
        "process {} ({}) belongs to another run than this process {}: {}. Start every process \
         of a run with the same command, --processes and --workers (each with its own \
         --process; a process without --workers takes its host's cores divided among the \
         processes of one host)",
        other.process,
        layout
            .addresses
            .get(other.process as usize)
            .map_or("?", String::as_str),
        layout.process,
        d.join("; ")
    ))
}

/// Connects this process to every other one of `layout` and shakes hands, within `limit`:
/// the sockets in process order (`None` for this process), ready for timely.
/// The refusal of a floe that speaks another protocol.
fn other_protocol(from: &str, protocol: u32) -> Error {
    Error::invalid(format!(
        "{from}: it speaks handshake {protocol}, this floe {PROTOCOL}: run the same floe \
         everywhere"
    ))
}

pub(super) fn connect(
    layout: &Layout,
    identity: &RunIdentity,
    limit: Duration,
) -> Result<Vec<Option<TcpStream>>, Error> {
    let me = layout.process;
    let mine = Hello::of(layout, identity);
    let hello = mine.to_bytes();
    let deadline = Instant::now() + limit;
    let mut sockets: Vec<Option<TcpStream>> = (0..layout.processes).map(|_| None).collect();
    let late = |who: &str| {
        Error::invalid(format!(
            "process {me}: {who} did not connect within {} s (FLOE_CONNECT_TIMEOUT); check \
             --hostfile and that every process of the run was started",
            limit.as_secs()
        ))
    };
    // listen first, so that the higher-numbered processes find this one as soon as they try
    let listener = if me + 1 < layout.processes {
        let addr = &layout.addresses[me];
        let l = TcpListener::bind(addr.as_str()).map_err(|e| {
            Error::invalid(format!(
                "process {me} cannot listen on {addr}: {e} (is another run using that port?)"
            ))
        })?;
        l.set_nonblocking(true).map_err(|e| Error::Io {
            path: addr.clone(),
            source: e,
        })?;
        Some(l)
    } else {
        None
    };
    // connect to every lower-numbered process: hello, then its verdict and hello
    for (j, addr) in layout.addresses.iter().enumerate().take(me) {
        let mut pause = Duration::from_millis(10);
        let mut s = loop {
            match TcpStream::connect(addr.as_str()) {
                Ok(s) => break s,
                Err(e) => {
                    if Instant::now() >= deadline {
                        return Err(late(&format!("process {j} ({addr}: {e})")));
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(200));
                }
            }
        };
        let from = format!("process {j} ({addr})");
        let _ = s.set_nodelay(true);
        let _ = s.set_read_timeout(Some(
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_secs(1)),
        ));
        s.write_all(&hello).map_err(|e| {
            Error::invalid(format!(
                "{from}: the connection broke during the handshake ({e})"
            ))
        })?;
        let mut verdict = [0u8];
        s.read_exact(&mut verdict).map_err(|e| {
            use std::io::ErrorKind::{TimedOut, WouldBlock};
            if matches!(e.kind(), TimedOut | WouldBlock) {
                // something listens there and says nothing: not a floe of this run
                Error::invalid(format!(
                    "{from}: no answer to the handshake ({e}): what listens at {addr} is not \
                     a floe process of this run (another program on that port, or a process \
                     stopped, say by SIGSTOP); check --peers and what runs there"
                ))
            } else {
                // an earlier floe drops a hello of another protocol without a word
                Error::invalid(format!(
                    "{from}: the connection broke during the handshake ({e}): what listens at \
                     {addr} closed it; a floe of an earlier version does so (run the same floe \
                     everywhere), as does another program on that port"
                ))
            }
        })?;
        let theirs = Hello::read(&mut s, &from)?;
        if verdict[0] == TAKEN {
            return Err(Error::invalid(format!(
                "{from} already has a process {me}: two processes were started with \
                 --process {me}"
            )));
        }
        if theirs.process as usize != j {
            return Err(Error::invalid(format!(
                "{from} says it is process {}: the hostfile of that process lists the \
                 processes in another order",
                theirs.process
            )));
        }
        let d = mine.differences(&theirs);
        if !d.is_empty() {
            return Err(refusal(layout, &theirs, &d));
        }
        sockets[j] = Some(s);
    }
    // accept every higher-numbered process
    if let Some(listener) = listener {
        while sockets[me + 1..].iter().any(Option::is_none) {
            let (mut s, peer) = match listener.accept() {
                Ok(x) => x,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        let missing: Vec<String> = (me + 1..layout.processes)
                            .filter(|&j| sockets[j].is_none())
                            .map(|j| j.to_string())
                            .collect();
                        return Err(late(&format!("process {}", missing.join(", "))));
                    }
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                Err(e) => {
                    return Err(Error::invalid(format!(
                        "process {me} cannot accept connections: {e}"
                    )))
                }
            };
            let from = format!("a process at {peer}");
            let _ = s.set_nonblocking(false);
            let _ = s.set_nodelay(true);
            let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
            // a stray connection (a port scanner, a process of another run) is dropped
            let theirs = match Hello::read_any(&mut s, &from) {
                Ok(Ok(h)) => h,
                Ok(Err(protocol)) => {
                    // a floe of another protocol: it hears this one's hello (and refuses it
                    // in its own words) before both stop
                    let _ = s.write_all(&[WELCOME]).and_then(|()| s.write_all(&hello));
                    return Err(other_protocol(&from, protocol));
                }
                Err(_) => continue,
            };
            let j = theirs.process as usize;
            let expected = j > me && j < layout.processes;
            let verdict = if expected && sockets[j].is_some() {
                TAKEN
            } else {
                WELCOME
            };
            let _ = s.write_all(&[verdict]).and_then(|()| s.write_all(&hello));
            if verdict == TAKEN {
                continue;
            }
            let d = mine.differences(&theirs);
            if !d.is_empty() {
                return Err(refusal(layout, &theirs, &d));
            }
            if !expected {
                // it connected to the wrong process (its hostfile is in another order): it
                // finds out from this hello
                continue;
            }
            sockets[j] = Some(s);
        }
    }
    for s in sockets.iter().flatten() {
        let _ = s.set_read_timeout(None);
    }
    Ok(sockets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hellos_read_back_and_name_what_differs() {
        let layout = Layout {
            workers: 2,
            processes: 3,
            process: 1,
            addresses: vec![],
        };
        let id = RunIdentity::new("space", "ice")
            .param("--rows", 4)
            .layout(3, 2);
        let a = Hello::of(&layout, &id);
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut out = TcpStream::connect(addr).unwrap();
        out.write_all(&a.to_bytes()).unwrap();
        let (mut inp, _) = listener.accept().unwrap();
        assert_eq!(Hello::read(&mut inp, "x").unwrap(), a);
        let b = Hello {
            process: 2,
            workers: 1,
            identity: RunIdentity::new("space", "ice")
                .param("--rows", 2)
                .layout(3, 1),
            ..a.clone()
        };
        assert_eq!(
            a.differences(&b),
            [
                "--workers: 2 here, 1 at process 2",
                "--rows: 4 here, 2 at process 2"
            ]
        );
        assert!(a.differences(&a).is_empty());
        // the same version number built from other sources is another floe
        assert!(
            a.version.starts_with(env!("CARGO_PKG_VERSION")) && a.version.contains("(sources ")
        );
        let other = Hello {
            version: format!("{} (sources 0123abcd)", env!("CARGO_PKG_VERSION")),
            ..a.clone()
        };
        let d = a.differences(&other);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].contains("(sources 0123abcd) at process 1")
                && d[0].contains("built from the same sources"),
            "{d:?}"
        );
        // something else on the port
        out.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let e = Hello::read(&mut inp, "x").unwrap_err().to_string();
        assert!(e.contains("not a floe process"), "{e}");
    }

    #[test]
    fn a_process_of_the_earlier_wire_format_is_refused() {
        let layout = Layout {
            workers: 1,
            processes: 2,
            process: 1,
            addresses: vec![],
        };
        let mut old = Hello::of(&layout, &RunIdentity::new("space", "ice")).to_bytes();
        // a floe that sends each rank in 8 bytes speaks handshake 1
        old[8..12].copy_from_slice(&1u32.to_le_bytes());
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut out = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        out.write_all(&old).unwrap();
        let (mut inp, _) = listener.accept().unwrap();
        let e = Hello::read(&mut inp, "process 1").unwrap_err().to_string();
        assert!(
            e.contains("it speaks handshake 1, this floe 2: run the same floe everywhere"),
            "{e}"
        );
        // the process that listens refuses it at once, and first tells it its own hello
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let first = Layout {
            process: 0,
            addresses: vec![format!("127.0.0.1:{port}"), "127.0.0.1:1".into()],
            ..layout
        };
        let id = RunIdentity::new("space", "ice");
        let client = std::thread::spawn(move || {
            let mut s = loop {
                if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
                    break s;
                }
                std::thread::sleep(Duration::from_millis(10));
            };
            s.write_all(&old).unwrap();
            let mut answer = Vec::new();
            let _ = s.read_to_end(&mut answer);
            answer
        });
        let begun = Instant::now();
        let e = connect(&first, &id, Duration::from_secs(20))
            .unwrap_err()
            .to_string();
        assert!(e.contains("speaks handshake 1, this floe 2"), "{e}");
        assert!(
            begun.elapsed() < Duration::from_secs(10),
            "it waited for another"
        );
        let answer = client.join().unwrap();
        assert_eq!(answer[0], WELCOME);
        assert_eq!(&answer[1..9], MAGIC);
        assert_eq!(answer[9..13], PROTOCOL.to_le_bytes());
    }
}
