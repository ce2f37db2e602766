use super::*;

/// Evaluates `text` on `cells` cells of resolution `n` with input a = `a`.
fn eval(text: &str, n: usize, a: Option<&[f32]>) -> Vec<f32> {
    let f = Formula::parse(text).expect("parses");
    let mut out = vec![0.0; 6 * n * n];
    let mut scratch = Vec::new();
    f.eval_block(crate::planet::Grid::Whole(n), 0, &[a, None, None, None], &FastPerlin::new(1), &mut scratch, &mut out);
    out
}

fn value(text: &str) -> f32 {
    eval(text, 1, None)[0]
}

#[test]
fn arithmetic_precedence_and_functions() {
    let cases = [
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("-2^2", -4.0),
        ("2^3^2", 512.0),
        ("2^-1", 0.5),
        ("10 - 4 - 3", 3.0),
        ("8 / 4 / 2", 1.0),
        ("1 / 0", 0.0),
        ("1e-3 * 1000", 1.0),
        (".5 + 0.25", 0.75),
        ("abs(-3) + sqrt(16) + floor(2.7)", 9.0),
        ("pow(2, 10)", 1024.0),
        ("min(3, 4) + max(3, 4)", 7.0),
        ("clamp(5, 0, 1) + clamp(-5, 0, 1)", 1.0),
        ("smoothstep(0, 1, 0.5)", 0.5),
        ("smoothstep(0, 1, 2) + smoothstep(0, 1, -1)", 1.0),
        ("mix(2, 4, 0.25)", 2.5),
        ("cos(pi) + sin(0) + exp(0)", 0.0),
        ("  3\t*2 ", 6.0),
    ];
    for (text, want) in cases {
        assert!((value(text) - want).abs() < 1e-5, "{text} = {}, want {want}", value(text));
    }
}

#[test]
fn per_cell_variables_follow_the_sphere_and_inputs() {
    let n = 8;
    let a: Vec<f32> = (0..6 * n * n).map(|c| c as f32).collect();
    let (xs, lat, lon, twice_a, cell) = (eval("x + 2 * y - z", n, None), eval("lat", n, None), eval("lon", n, None), eval("a * 2", n, Some(&a)), eval("cell", n, None));
    for c in 0..6 * n * n {
        let d = crate::planet::Cell::from_index(c, n).direction(n);
        assert!((xs[c] - (d.x + 2.0 * d.y - d.z)).abs() < 1e-5);
        assert!((lat[c] - d.y.asin().to_degrees()).abs() < 1e-3);
        let back = crate::planet::projection::lon_lat_to_dir(lon[c].to_radians(), lat[c].to_radians());
        assert!(back.distance(d) < 1e-4, "lon/lat of {d} give {back}");
        assert_eq!(twice_a[c], 2.0 * c as f32);
        assert!((cell[c] - 90.0 / n as f32).abs() < 1.0);
    }
    // Noise is seeded, smooth and in about -1..1.
    let noise = eval("noise(x * 4, y * 4, z * 4)", 32, None);
    assert!(noise.iter().all(|v| v.abs() <= 1.5) && noise.iter().any(|&v| v.abs() > 0.1));
    let f = Formula::parse("a + c").expect("parses");
    assert_eq!(f.inputs, [true, false, true, false]);
}

#[test]
fn mistakes_name_their_column() {
    let cases = [
        ("1 + * 2", 5, "unexpected '*'"),
        ("a +", 4, "ends too early"),
        ("foo(1)", 1, "unknown function 'foo'"),
        ("2 * min(1)", 5, "min takes 2 arguments, not 1"),
        ("q + 1", 1, "unknown name 'q'"),
        ("sin(x", 6, "ends too early"),
        ("1 + 2)", 6, "unexpected ')'"),
        ("", 1, "empty"),
        ("1 + é", 5, "unexpected 'é'"),
        // The real culprit, not where the parser last had a choice.
        ("sin(x * ) + foo(3", 9, "unexpected ')'"),
        ("max(a, b - ) * 2", 12, "unexpected ')'"),
        ("-", 2, "ends too early"),
    ];
    for (text, column, message) in cases {
        match Formula::parse(text) {
            Err(e) => {
                assert_eq!(e.column, column, "{text}: {e}");
                assert!(e.message.contains(message), "{text}: {e}");
            }
            Ok(_) => panic!("{text} parsed"),
        }
    }
}

#[test]
fn constant_parts_are_folded() {
    let f = Formula::parse("a * (2 + 3 * 4)").expect("parses");
    assert_eq!(f.ops.len(), 3, "{:?}", f.ops);
}
