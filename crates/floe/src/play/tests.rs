use super::*;
use crate::games::ice::WalkRule;
use crate::grid::Push;
use crate::ops::Request;
use crate::search::LimitKind;

fn session(text: &str, params: &str) -> Session {
    Request::from_text(text, "t")
        .params(params)
        .resolve()
        .unwrap()
        .level
        .play()
        .unwrap()
}
fn ice(text: &str, rule: WalkRule) -> Session {
    session(text, &format!("rules={rule}"))
}
fn push_game(text: &str) -> Session {
    session(&format!("Game: pushpush\n{text}"), "")
}
fn tower_game(text: &str) -> Session {
    session(&format!("Game: icetower\n{text}"), "")
}
fn keys(s: &mut Session, script: &str) -> Vec<Event> {
    parse_keys(script)
        .unwrap()
        .into_iter()
        .map(|a| s.apply(a))
        .collect()
}
fn push(r: usize, c: usize, d: Dir) -> Move {
    Move::new(Push::new(Pos::new(r, c), d))
}
/// Follows hints until solved; returns the pushes played.
fn follow(s: &mut Session, at_most: usize) -> usize {
    let mut n = 0;
    while !s.is_solved() {
        assert!(n < at_most, "no solution within {at_most} hinted pushes");
        let e = s.apply(Action::FollowHint);
        assert!(matches!(e, Event::Moved { .. }), "{e:?}");
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
        Event::Moved {
            played: push(0, 0, Dir::Right),
            solved: false
        }
    );
    // the selection followed the block to (0, 2); tab selects the next block, (0, 3)
    assert_eq!(e[1], Event::Selected(Pos::new(0, 3)));
    assert_eq!(
        e[2],
        Event::Moved {
            played: push(0, 3, Dir::Down),
            solved: true
        }
    );
    assert!(s.is_solved());
    assert_eq!(s.move_count(), 2);
    assert_eq!(s.board_text(), "--$-\n---*\n");
    assert_eq!(
        s.verdict(),
        Ok(Verdict::Solvable {
            moves: 0,
            next: None
        })
    );
}

#[test]
fn illegal_pushes_change_nothing_and_say_why() {
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    let e = s.apply(Action::Arrow(Dir::Left));
    match e {
        Event::Illegal { played: p, reason } => {
            assert_eq!(p, push(0, 0, Dir::Left));
            assert!(reason.contains("edge of the board"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.move_count(), 0);
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
        Event::Moved { .. }
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
    assert_eq!((s.board_text(), s.move_count()), (start, 0));
    assert_eq!(s.selected(), Some(Pos::new(0, 0)));
}

#[test]
fn undo_takes_a_restart_back_and_redo_restarts_again() {
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    let start = s.board_text();
    keys(&mut s, "right tab down");
    let end = s.board_text();
    let played = s.moves();
    assert_eq!(s.apply(Action::Restart), Event::Restarted);
    assert_eq!((s.board_text(), s.move_count()), (start.clone(), 0));
    // Undo at the start brings back the game the restart left, moves and all
    assert_eq!(s.apply(Action::Undo), Event::RestartUndone(2));
    assert_eq!((s.board_text(), s.moves()), (end.clone(), played.clone()));
    assert!(s.is_solved());
    // and its moves are taken back one by one after that
    assert_eq!(s.apply(Action::Undo), Event::Undone(push(0, 3, Dir::Down)));
    assert_eq!(s.apply(Action::Redo), Event::Redone(push(0, 3, Dir::Down)));
    // Redo after the restart was taken back restarts again
    assert_eq!(s.apply(Action::Undo), Event::Undone(push(0, 3, Dir::Down)));
    assert_eq!(s.apply(Action::Redo), Event::Redone(push(0, 3, Dir::Down)));
    assert_eq!(s.apply(Action::Restart), Event::Restarted);
    assert_eq!(s.apply(Action::Undo), Event::RestartUndone(2));
    assert_eq!(s.redo_count(), 1);
    assert_eq!(s.apply(Action::Redo), Event::Restarted);
    assert_eq!(s.move_count(), 0);
    // moves after a restart are undone first, then the restart
    keys(&mut s, "right");
    assert_eq!(s.apply(Action::Undo), Event::Undone(push(0, 0, Dir::Right)));
    assert_eq!(s.apply(Action::Undo), Event::RestartUndone(2));
    assert_eq!(s.board_text(), end);
    // a restart at the start leaves nothing to take back; a new move forgets the redo
    let mut t = ice("$--$\n---.\n", WalkRule::Free);
    assert_eq!(t.apply(Action::Restart), Event::Restarted);
    assert_eq!(t.apply(Action::Undo), Event::NothingToUndo);
    keys(&mut t, "right");
    t.apply(Action::Restart);
    t.apply(Action::Undo);
    t.apply(Action::Undo);
    keys(&mut t, "right");
    assert_eq!(t.apply(Action::Redo), Event::NothingToRedo);
    // only so many restarts are kept
    for _ in 0..40 {
        keys(&mut t, "u right R");
    }
    let mut back = 0;
    while let Event::RestartUndone(_) | Event::Undone(_) = t.apply(Action::Undo) {
        back += 1;
    }
    assert!(back <= 2 * 16 + 1, "{back}");
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
        Event::Moved { solved: true, .. }
    ));
}

#[test]
fn hints_are_optimal_and_lead_to_a_solution() {
    // OOTIC needs 7 pushes (spec figure): the hints find them from the start
    let zelda = include_str!("../../../../levels/zelda.txt");
    let mut s = Request::from_text(zelda, "zelda")
        .level(Some("OOTIC"))
        .resolve()
        .unwrap()
        .level
        .play()
        .unwrap();
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { moves: 7, .. })
    ));
    assert_eq!(follow(&mut s, 7), 7);
    // PushPush: one push
    let mut p = push_game("@$--\n##-.\n");
    assert!(matches!(
        p.apply(Action::Hint),
        Event::Hint(Verdict::Solvable { moves: 1, .. })
    ));
    assert_eq!(p.hint(), Some(push(0, 1, Dir::Right)));
    assert_eq!(p.view().at(Pos::new(0, 1)).hint, Some(Dir::Right));
    assert_eq!(follow(&mut p, 1), 1);
    // Ice Tower
    let mut t = tower_game("#######\n#@% **#\n#  %  #\n#$ -  #\n#######\n");
    let Ok(Verdict::Solvable { moves, .. }) = t.verdict() else {
        panic!("solvable")
    };
    assert_eq!(follow(&mut t, moves as usize), moves as usize);
}

#[test]
fn the_hint_counts_from_the_current_position() {
    // after a detour the hint still finds the fewest pushes from where the blocks are now
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { moves: 1, .. })
    ));
    s.apply(Action::Arrow(Dir::Down)); // (0,0) slides down to (1,0)
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { moves: 1, .. })
    ));
    // under walk, the player's cell is part of the position
    let text = "Rules: walk\n#####\n#@#--\n###$.\n-----\n";
    let mut w = session(text, "");
    assert_eq!(w.verdict(), Ok(Verdict::Unsolvable));
}

#[test]
fn pushpush_walks_pushes_and_notices_a_lost_position() {
    let mut s = push_game("@-$-\n##-.\n");
    let hinted = push(0, 2, Dir::Right);
    assert_eq!(
        s.apply(Action::Hint),
        Event::Hint(Verdict::Solvable {
            moves: 1,
            next: Some(hinted.clone())
        })
    );
    assert_eq!(
        s.apply(Action::Arrow(Dir::Right)),
        Event::Walked(Pos::new(0, 1))
    );
    // walking within his region changes nothing the solver cares about: the answer stays
    assert!(s.known_verdict().is_some());
    assert_eq!(s.hint(), Some(hinted));
    assert_eq!(s.move_count(), 0);
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Down)),
        Event::Blocked(_)
    ));
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Right)),
        Event::Moved { solved: true, .. }
    ));
    assert!(matches!(s.apply(Action::NextBlock), Event::NotHere(_)));
    // a wrong first push (up) loses the game; the other (from the right, left) wins it
    let mut s = push_game("#.#\n-$-\n$@-\n");
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { moves: 1, .. })
    ));
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Up)),
        Event::Moved { solved: false, .. }
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
        Event::Moved {
            played: push(1, 2, Dir::Right),
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
    let mut s = Request::from_text(zelda, "zelda")
        .level(Some("OOSSAS"))
        .resolve()
        .unwrap()
        .level
        .play()
        .unwrap()
        .with_limits(Limits::none().max_states(10));
    assert_eq!(s.verdict(), Ok(Verdict::Unknown(LimitKind::MaxStates)));
    assert!(matches!(
        s.apply(Action::FollowHint),
        Event::Hint(Verdict::Unknown(_))
    ));
    assert_eq!(s.move_count(), 0);
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
        Some(Ok(Verdict::Solvable { moves: 1, .. }))
    ));
}

#[test]
fn solitaire_puzzles_are_played_by_picking_moves() {
    // 1 2 2 1: the only first move removes the 2s, then the 1s
    let mut s = session("Game: boxoff\n1 2 2 1\n", "");
    assert_eq!(s.keys(), crate::game::Keys::PickMove);
    assert!(matches!(s.apply(Action::Arrow(Dir::Up)), Event::NotHere(_)));
    match s.apply(Action::NextBlock) {
        Event::Shown(m) => assert_eq!(m.json()["remove"], serde_json::json!([[0, 1], [0, 2]])),
        other => panic!("{other:?}"),
    }
    assert!(s.view().cells.iter().filter(|c| c.marked).count() == 2);
    assert!(matches!(
        s.apply(Action::Select),
        Event::Moved { solved: false, .. }
    ));
    assert!(matches!(
        s.verdict(),
        Ok(Verdict::Solvable { moves: 1, .. })
    ));
    assert!(matches!(
        s.apply(Action::FollowHint),
        Event::Moved { solved: true, .. }
    ));
    assert_eq!(s.apply(Action::NextBlock), Event::NoMoves);
    assert!(matches!(s.apply(Action::Undo), Event::Undone(_)));
    assert_eq!(s.board_text(), "1 . . 1\n");
    // Enter plays the hint shown (as it plays a move shown)
    assert!(matches!(s.apply(Action::Hint), Event::Hint(_)));
    assert!(s.hint().is_some());
    assert!(matches!(
        s.apply(Action::Select),
        Event::Moved { solved: true, .. }
    ));
    // Fujisan: hints from any position, replayed by the rules
    let mut f = session(
        "Game: fujisan\n3 1 4 0 2 5 1 2 3 4 0 1\n2 0 5 3 1 4 2 3 1 0 5 4\n",
        "",
    );
    if let Ok(Verdict::Solvable { moves, .. }) = f.verdict() {
        assert_eq!(follow(&mut f, moves as usize), moves as usize);
    }
}

#[test]
fn clicks_select_blocks_and_show_moves_through_a_cell() {
    // ice blocks: a click on a block selects it; elsewhere it says so and changes nothing
    let mut s = ice("$--$\n---.\n", WalkRule::Free);
    assert_eq!(
        s.apply(Action::Click(Pos::new(0, 3))),
        Event::Selected(Pos::new(0, 3))
    );
    assert_eq!(s.selected(), Some(Pos::new(0, 3)));
    assert!(matches!(
        s.apply(Action::Click(Pos::new(1, 1))),
        Event::NotHere(_)
    ));
    assert_eq!(s.selected(), Some(Pos::new(0, 3)));
    assert!(matches!(
        s.apply(Action::Arrow(Dir::Down)),
        Event::Moved { solved: true, .. }
    ));
    // a game played by picking moves: a click shows the next legal move through the cell,
    // then the following one through it; a cell no move touches is refused
    let mut b = session("Game: boxoff\n1 2 2 1\n3 . . 3\n", "");
    let shown = |e: Event| match e {
        Event::Shown(m) => m.json()["remove"].clone(),
        other => panic!("{other:?}"),
    };
    let first = shown(b.apply(Action::Click(Pos::new(0, 1))));
    assert!(first.to_string().contains("[0,1]"), "{first}");
    assert!(matches!(b.apply(Action::Select), Event::Moved { .. }));
    assert!(matches!(
        b.apply(Action::Click(Pos::new(0, 1))),
        Event::NotHere(_)
    ));
    // walking games leave clicks to the arrows
    let mut p = push_game("@$-.\n");
    assert!(matches!(
        p.apply(Action::Click(Pos::new(0, 1))),
        Event::NotHere(_)
    ));
}

#[test]
fn given_moves_are_played_by_the_rules_and_clear_redo() {
    let req = Request::from_text("$--$\n---.\n", "t").resolve().unwrap();
    let moves = req.level.parse_moves("0 3 down\n", "moves").unwrap();
    let mut s = req.level.play().unwrap();
    assert!(matches!(
        s.play_move(&moves[0]),
        Event::Moved { solved: true, .. }
    ));
    assert_eq!(s.move_count(), 1);
    assert!(matches!(s.apply(Action::Undo), Event::Undone(_)));
    assert_eq!(s.redo_count(), 1);
    // an illegal move changes nothing and says why
    let wrong = push(1, 1, Dir::Up);
    assert!(matches!(s.play_move(&wrong), Event::Illegal { .. }));
    assert_eq!((s.move_count(), s.redo_count()), (0, 1));
    assert!(s.message().contains("illegal"), "{}", s.message());
    assert!(matches!(s.play_move(&moves[0]), Event::Moved { .. }));
    assert_eq!(s.redo_count(), 0);
    // a move of another game is refused, not played
    let alien = Move::new(crate::grid::Dir::Up);
    assert!(matches!(s.play_move(&alien), Event::Failed(_)));
}
