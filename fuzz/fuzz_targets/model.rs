#![no_main]

//! Model files of floe-learn: the header's sizes must be checked before anything is built
//! from them (run with `-malloc_limit_mb`, so that a huge allocation is a crash).

use floe_learn::model::Net;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((net, info)) = Net::from_bytes(data) else {
        return;
    };
    let written = net
        .to_bytes(&info)
        .unwrap_or_else(|e| panic!("a model read cannot be written: {e}"));
    if let Err(e) = Net::from_bytes(&written) {
        panic!("a model floe wrote cannot be read: {e}");
    }
});
