use super::*;
use crate::games::ice::format::parse_floe;
use crate::games::icetower::parse as parse_tower;
use crate::games::pushpush::board::parse as parse_board;

fn ice(text: &str, rule: WalkRule) -> Session {
    let l = parse_floe(text, "t").unwrap().remove(0);
    Session::ice(&l, rule, "t")
}
fn push_game(text: &str) -> Session {
    let b = parse_board(text, "t").unwrap().remove(0);
    Session::pushpush(&b, Variant::default(), "t")
}
fn tower_game(text: &str) -> Session {
    Session::icetower(&parse_tower(text, "t", "t").unwrap())
}
fn keys(s: &mut Session, script: &str) -> Vec<Event> {
    parse_keys(script)
        .unwrap()
        .into_iter()
        .map(|a| s.apply(a))
        .collect()
}
fn push(r: usize, c: usize, d: Dir) -> Push {
    Push::new(Pos::new(r, c), d)
}
/// Follows hints until solved; returns the pushes played.
fn follow(s: &mut Session, at_most: usize) -> usize {
    let mut n = 0;
    while !s.is_solved() {
        assert!(n < at_most, "no solution within {at_most} hinted pushes");
        let e = s.apply(Action::FollowHint);
        assert!(matches!(e, Event::Pushed { .. }), "{e:?}");
        n += 1;
    }
    n
}

#[test]
fn ice_blocks_solved_with_selection_and_arrows() {
    // the first block is selected at the start; tab moves to the next one
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    assert_eq!(s.selected(), Some(Pos::new(0, 0)));
    let e = keys(&mut s, "right tab down");
    assert_eq!(
        e[0],
        Event::Pushed {
            push: push(0, 0, Dir::Right),
            solved: false
        }
    );
    // the selection followed the block to (0, 2); tab selects the next block, (0, 3)
    assert_eq!(e[1], Event::Selected(Pos::new(0, 3)));
    assert_eq!(
        e[2],
        Event::Pushed {
            push: push(0, 3, Dir::Down),
            solved: true
        }
    );
    assert!(s.is_solved());
    assert_eq!(s.push_count(), 2);
    assert_eq!(s.board_text(), "--$-\n---*\n");
    assert_eq!(
        s.verdict(),
        Ok(Verdict::Solvable {
            pushes: 0,
            next: None
        })
    );
}

#[test]
fn illegal_pushes_change_nothing_and_say_why() {
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    let e = s.apply(Action::Arrow(Dir::Left));
    match e {
        Event::Illegal { push: p, reason } => {
            assert_eq!(p, push(0, 0, Dir::Left));
            assert!(reason.contains("edge of the board"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.push_count(), 0);
    assert!(s.message().starts_with("illegal push (0, 0) left"));
    // the walk rule: a walled-in player cannot reach the cell behind the block
    let text = "#####\n#@#--\n###$-\n-----\n";
    let mut walk = ice(text, WalkRule::Walk);
    assert!(matches!(
        walk.apply(Action::Arrow(Dir::Up)),
        Event::Illegal { .. }
    ));
    let mut free = ice(text, WalkRule::Free);
    assert!(matches!(
        free.apply(Action::Arrow(Dir::Up)),
        Event::Pushed { .. }
    ));
}

#[test]
fn undo_redo_and_restart() {
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    let start = s.board_text();
    keys(&mut s, "right tab down");
    let end = s.board_text();
    assert_eq!(s.apply(Action::Undo), Event::Undone(push(0, 3, Dir::Down)));
    assert_eq!(s.selected(), Some(Pos::new(0, 3)));
    assert_eq!(s.apply(Action::Undo), Event::Undone(push(0, 0, Dir::Right)));
    assert_eq!(s.apply(Action::Undo), Event::NothingToUndo);
    assert_eq!(s.board_text(), start);
    assert_eq!(s.redo_count(), 2);
    assert_eq!(s.apply(Action::Redo), Event::Redone(push(0, 0, Dir::Right)));
    assert_eq!(s.apply(Action::Redo), Event::Redone(push(0, 3, Dir::Down)));
    assert_eq!(s.apply(Action::Redo), Event::NothingToRedo);
    assert_eq!(s.board_text(), end);
    assert!(s.is_solved());
    // a new push after an undo drops what could be redone
    keys(&mut s, "u u");
    s.apply(Action::Arrow(Dir::Down));
    assert_eq!(s.redo_count(), 0);
    assert_eq!(s.apply(Action::Restart), Event::Restarted);
    assert_eq!((s.board_text(), s.push_count()), (start, 0));
    assert_eq!(s.selected(), Some(Pos::new(0, 0)));
}

#[test]
fn cursor_mode_selects_the_block_under_the_cursor() {
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    assert_eq!(s.apply(Action::Select), Event::Cursor(Pos::new(0, 0)));
    keys(&mut s, "right right");
    assert_eq!(
        s.apply(Action::Select),
        Event::NotHere("no block under the cursor")
    );
    s.apply(Action::Arrow(Dir::Right));
    assert_eq!(s.apply(Action::Select), Event::Selected(Pos::new(0, 3)));
    assert_eq!(s.cursor(), None);
    assert!(s.view().at(Pos::new(0, 3)).selected);
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Down)),
        Event::Pushed { solved: true, .. }
    ));
}

#[test]
fn hints_are_optimal_and_lead_to_a_solution() {
    // OOTIC needs 7 pushes (spec figure): the hints find them from the start
    let zelda = include_str!("../../../../levels/zelda.txt");
    let levels = parse_floe(zelda, "zelda").unwrap();
    let l = levels
        .iter()
        .find(|l| l.title.as_deref() == Some("OOTIC"))
        .unwrap();
    let mut s = Session::ice(l, WalkRule::Free, "OOTIC");
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { pushes: 7, .. })
    ));
    assert_eq!(follow(&mut s, 7), 7);
    // PushPush: one push
    let mut p = push_game("@$--\n##-.\n");
    assert!(matches!(
        p.apply(Action::Hint),
        Event::Hint(Verdict::Solvable { pushes: 1, .. })
    ));
    assert_eq!(p.hint(), Some(push(0, 1, Dir::Right)));
    assert_eq!(p.view().at(Pos::new(0, 1)).hint, Some(Dir::Right));
    assert_eq!(follow(&mut p, 1), 1);
    // Ice Tower
    let mut t = tower_game("#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n");
    let Ok(Verdict::Solvable { pushes, .. }) = t.verdict() else {
        panic!("solvable")
    };
    assert_eq!(follow(&mut t, pushes as usize), pushes as usize);
}

#[test]
fn the_hint_counts_from_the_current_position() {
    // after a detour the hint still finds the fewest pushes from where the blocks are now
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { pushes: 1, .. })
    ));
    s.apply(Action::Arrow(Dir::Down)); // (0,0) slides down to (1,0)
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { pushes: 1, .. })
    ));
    // under walk, the player's cell is part of the position
    let text = "Rules: walk\n#####\n#@#--\n###$.\n-----\n";
    let l = parse_floe(text, "t").unwrap().remove(0);
    let mut w = Session::ice(&l, WalkRule::Walk, "t");
    assert_eq!(w.verdict(), Ok(Verdict::Unsolvable));
}

#[test]
fn pushpush_walks_pushes_and_notices_a_lost_position() {
    let mut s = push_game("@-$-\n##-.\n");
    let hinted = push(0, 2, Dir::Right);
    assert_eq!(
        s.apply(Action::Hint),
        Event::Hint(Verdict::Solvable {
            pushes: 1,
            next: Some(hinted)
        })
    );
    assert_eq!(
        s.apply(Action::Arrow(Dir::Right)),
        Event::Walked(Pos::new(0, 1))
    );
    // walking within his region changes nothing the solver cares about: the answer stays
    assert!(s.known_verdict().is_some());
    assert_eq!(s.hint(), Some(hinted));
    assert_eq!(s.push_count(), 0);
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Down)),
        Event::Blocked(_)
    ));
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Right)),
        Event::Pushed { solved: true, .. }
    ));
    assert!(matches!(s.apply(Action::NextBlock), Event::NotHere(_)));
    // a wrong first push (up) loses the game; the other (from the right, left) wins it
    let mut s = push_game("#.#\n-$-\n$@-\n");
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { pushes: 1, .. })
    ));
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Up)),
        Event::Pushed { solved: false, .. }
    ));
    assert_eq!(s.verdict(), Ok(Verdict::Unsolvable));
    assert!(matches!(
        s.apply(Action::FollowHint),
        Event::Hint(Verdict::Unsolvable)
    ));
    s.apply(Action::Undo);
    assert!(s.view().at(Pos::new(2, 1)).actor);
    assert_eq!(follow(&mut s, 1), 1);
}

#[test]
fn icetower_magician_walks_and_pushes() {
    let mut s = tower_game("#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n");
    assert!(matches!(s.apply(Action::Arrow(Dir::Up)), Event::Blocked(_)));
    assert_eq!(
        s.apply(Action::Arrow(Dir::Down)),
        Event::Walked(Pos::new(2, 1))
    );
    // back up, then into the block at (1, 2): it slides into the fire at (1, 4)
    s.apply(Action::Arrow(Dir::Up));
    let e = s.apply(Action::Arrow(Dir::Right));
    assert_eq!(
        e,
        Event::Pushed {
            push: push(1, 2, Dir::Right),
            solved: false
        }
    );
    assert_eq!(s.view().at(Pos::new(1, 4)).ground, Ground::Ice);
    assert!(s.board_text().starts_with("#######\n#@   *#\n"));
    s.apply(Action::Undo);
    assert_eq!(s.view().at(Pos::new(1, 4)).ground, Ground::Fire);
}

#[test]
fn limits_give_unknown_not_a_guess() {
    let zelda = include_str!("../../../../levels/zelda.txt");
    let l = parse_floe(zelda, "zelda")
        .unwrap()
        .into_iter()
        .find(|l| l.title.as_deref() == Some("OOSSAS"))
        .unwrap();
    let mut s =
        Session::ice(&l, WalkRule::Free, "OOSSAS").with_limits(Limits::none().max_states(10));
    assert_eq!(s.verdict(), Ok(Verdict::Unknown(LimitKind::MaxStates)));
    assert!(matches!(
        s.apply(Action::FollowHint),
        Event::Hint(Verdict::Unknown(_))
    ));
    assert_eq!(s.push_count(), 0);
}

#[test]
fn jobs_answer_for_the_position_they_were_asked_about() {
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    let job = s.job();
    s.apply(Action::Arrow(Dir::Down));
    assert_eq!(s.known_verdict(), None);
    let a = std::thread::spawn(move || job.run()).join().unwrap();
    s.store(a);
    // filed for the start, not for the position now on the board
    assert_eq!(s.known_verdict(), None);
    s.apply(Action::Undo);
    assert!(matches!(
        s.known_verdict(),
        Some(Ok(Verdict::Solvable { pushes: 1, .. }))
    ));
}
