//! `floe learn data|train|eval` and `floe predict`: a tiny pipeline end to end, the JSON
//! contracts, bad model files (with the `learn` feature); without it, a clear refusal.

mod common;

/// Without the learned predictors the commands say how to build them, exit code 2.
#[cfg(not(feature = "learn"))]
#[test]
fn without_the_feature_the_commands_say_how_to_get_them() {
    for args in [
        &["learn", "data", "--out", "x.jsonl"][..],
        &["predict", "levels/pushpush.txt", "--model", "m"][..],
    ] {
        let r = common::floe(args).code(2);
        assert!(
            r.stderr.contains("built without the learned predictors")
                && r.stderr.contains("--features learn"),
            "{}",
            r.stderr
        );
    }
}

#[cfg(feature = "learn")]
mod with_learn {
    use super::common::*;
    use serde_json::Value;

    fn f(v: &Value) -> f64 {
        v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
    }

    /// `floe predict levels/pushpush.txt --level <level> --model <model> <rest…>`.
    fn predict(level: &str, model: &str, rest: &[&str]) -> Run {
        let levels = bundled("pushpush.txt");
        let head = ["predict", &levels, "--level", level, "--model", model];
        floe(&[&head[..], rest].concat())
    }

    #[test]
    fn data_train_eval_predict() {
        let data = Temp::new("d.tsv");
        let line = "learn data --count 3000 --seed 5 --out {} --json";
        let doc = floe_json(&words_with(line, &[&data.path()]), 0);
        assert_eq!(doc["boards"], 3000);
        let parts = ["train", "val", "test"].map(|k| doc[k].as_u64().unwrap());
        assert_eq!(parts.iter().sum::<u64>(), 3000);
        assert!(data.read().starts_with("# floe-learn dataset 1\n"));

        let model = Temp::new("m.bin");
        let line =
            "learn train --data {} --arch cnn --task pushes --epochs 2 --width 8 --out {} --json";
        let doc = floe_json(&words_with(line, &[&data.path(), &model.path()]), 0);
        assert_eq!(doc["spec"]["arch"], "cnn");
        assert_eq!(doc["epochs"].as_array().unwrap().len(), 2);
        // the solvability read off the pushes head, then the pushes themselves
        assert_eq!(doc["test"][0]["task"], "solvable");
        assert_eq!(doc["test"][0]["derived"], true);
        assert_eq!(doc["test"][1]["task"], "pushes");

        let line = "learn eval --model {} --data {} --json";
        let doc = floe_json(&words_with(line, &[&model.path(), &data.path()]), 0);
        assert_eq!(doc["split"], "test");
        let s = &doc["scores"][1];
        let n = s["examples"].as_u64().unwrap();
        let confusion: u64 = s["confusion"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()))
            .sum();
        assert_eq!(confusion, n);
        let binned: u64 = s["calibration"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["count"].as_u64().unwrap())
            .sum();
        assert_eq!(binned, n);

        let doc = predict("hardest-4x4-a", &model.path(), &["--json"])
            .code(0)
            .json();
        let p = f(&doc["solvable"]);
        assert!((0.0..=1.0).contains(&p));
        let pushes = doc["pushes"].as_object().unwrap();
        assert!(pushes.contains_key("-1") && pushes.contains_key("0"));
        let total: f64 = pushes.values().map(f).sum();
        assert!((total - 1.0).abs() < 1e-3, "{total}");
        assert!((p - (1.0 - f(&pushes["-1"]))).abs() < 1e-6);
        assert!(doc["difficulty"].is_null());
        // a CNN is tied to its board size
        let out = predict("hardest-5x5", &model.path(), &[]).code(2);
        assert!(out.stderr.contains("4×4"), "{}", out.stderr);
        // human output
        let out = predict("1", &model.path(), &[]).code(0);
        assert!(out.stdout.contains("solvable"));
    }

    #[test]
    fn bad_model_files_exit_2() {
        let junk = Temp::with("junk.bin", b"this is not a model");
        let out = predict("1", &junk.path(), &[]).code(2);
        assert!(
            out.stderr.contains("not a usable floe model file"),
            "{}",
            out.stderr
        );
        let mut bytes = b"FLOEMDL\n".to_vec();
        bytes.extend_from_slice(&1u32.to_le_bytes());
        bytes.extend_from_slice(&5u32.to_le_bytes());
        bytes.extend_from_slice(b"{oops");
        let cut = Temp::with("cut.bin", &bytes);
        let out = predict("1", &cut.path(), &[]).code(2);
        assert!(out.stderr.contains("bad header"), "{}", out.stderr);
        predict("1", "/nonexistent/m.bin", &[]).code(2);
        let bad = Temp::with("bad.tsv", b"# floe-learn dataset 1\n# rows 4 cols 4 seed 1 split-seed 1\nsplit\tboard\tpushes\tdifficulty\tclass\ntrain\t@---\t0\t0\t0\n");
        let out = floe(&["learn", "data", "--data", &bad.path(), "--out", "/dev/null"]).code(2);
        assert!(out.stderr.contains(":4:"), "{}", out.stderr);
    }
}
