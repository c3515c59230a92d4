//! Pictures drawn with ice blocks: deciding a picture (placement searches over the train's
//! positions) and the census of every 3×3 picture.

use criterion::{criterion_group, criterion_main, Criterion};
use floe::generate::image::{census, draw, DrawLimits};
use floe::generate::picture::Picture;
use std::hint::black_box;

fn decide(c: &mut Criterion) {
    let mut g = c.benchmark_group("image");
    g.sample_size(10);
    let pictures: [(&str, &[u8], &str); 2] = [
        (
            "heart",
            b".##.##.\n#######\n#######\n.#####.\n..###..\n...#...\n",
            "heart 6x7 (27 pixels)",
        ),
        (
            "smiley",
            include_bytes!("../../../levels/images/smiley.txt"),
            "smiley 16x16 (58 pixels)",
        ),
    ];
    for (name, text, id) in pictures {
        let picture = Picture::parse(text, name).unwrap();
        g.bench_function(id, |b| {
            b.iter(|| {
                let r = draw(&picture, DrawLimits::default()).unwrap().unwrap();
                black_box(r.pushes)
            })
        });
    }
    g.bench_function("census 3x3", |b| {
        b.iter(|| black_box(census(3, 3).unwrap().creatable))
    });
    g.finish();
}

criterion_group!(benches, decide);
criterion_main!(benches);
