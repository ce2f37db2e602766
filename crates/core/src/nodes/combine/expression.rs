//! The Expression node: a formula over the inputs a, b, c, d and per-cell variables (seed
//! 004's user-defined nodes, for people who think in formulas). The language is in
//! [`super::formula`].

use super::formula::Formula;
use crate::nodes::prelude::*;
use crate::planet::fbm::FastPerlin;
use rayon::prelude::*;

crate::settings! {
    /// Settings of the Expression node.
    pub struct ExpressionSettings, keys ExpressionKeys {
        /// The formula.
        formula: String = text("Formula", "a * 0.5 + 0.1 * noise(x * 8, y * 8, z * 8)", 500, "A formula evaluated at every cell. Names: a, b, c, d (the inputs), x, y, z (the cell's point on the unit sphere), lat, lon (degrees; longitude 0 faces +Z, east positive), cell (the cell size in degrees of arc), pi. Operators: + - * / ^ and parentheses. Functions: abs, sqrt, sin, cos (radians), exp, floor, pow, min, max, clamp(v, lo, hi), smoothstep(e0, e1, v), mix(a, b, t), noise(x, y, z) (Perlin noise, about -1..1). Division by 0 gives 0."),
        /// Seed of noise().
        seed: u32 = seed(1),
    }
}

/// The Expression node.
pub struct Expression;

crate::ports! {
    const INPUTS: In = [
        /// The formula's `a`.
        A: Field = PortDef::optional("a", PortType::Field),
        /// The formula's `b`.
        B: Field = PortDef::optional("b", PortType::Field),
        /// The formula's `c`.
        C: Field = PortDef::optional("c", PortType::Field),
        /// The formula's `d`.
        D: Field = PortDef::optional("d", PortType::Field),
    ];
}

/// Cells per block of the evaluation.
const BLOCK: usize = 512;

impl Node for Expression {
    type Settings = ExpressionSettings;
    const META: NodeMeta = NodeMeta::new(
        "Expression",
        Category::Combine,
        "A formula evaluated at every cell over the inputs a, b, c, d and the cell's position (x, y, z, lat, lon), with arithmetic, pow, abs, min, max, clamp, smoothstep, sin, cos and noise; a mistake is shown here with its column.",
        INPUTS,
        OUT,
        file!(),
    )
    .costing(5);

    fn check(s: &ExpressionSettings, connected: &[bool]) -> Result<(), String> {
        let formula = Formula::parse(&s.formula).map_err(|e| e.to_string())?;
        match formula.inputs.iter().zip(connected).position(|(used, on)| *used && !*on) {
            Some(k) => {
                let name = [A, B, C, D][k].name();
                Err(format!("the formula reads '{name}', but input '{name}' is not connected"))
            }
            None => Ok(()),
        }
    }

    fn run(s: &ExpressionSettings, inputs: &Inputs, ctx: &OpContext) -> Result<Vec<Value>, OpError> {
        ctx.check()?;
        let formula = Formula::parse(&s.formula).map_err(|e| OpError::Invalid(e.to_string()))?;
        let fields = [inputs.port_opt(A)?, inputs.port_opt(B)?, inputs.port_opt(C)?, inputs.port_opt(D)?];
        for (k, used) in formula.inputs.iter().enumerate() {
            if *used && fields[k].is_none() {
                let name = [A, B, C, D][k].name();
                return Err(OpError::Invalid(format!("the formula reads '{name}', but input '{name}' is not connected")));
            }
        }
        let data = fields.map(|f| f.map(|f| f.data()));
        let grid = ctx.grid();
        let noise = FastPerlin::new(s.seed);
        let mut out = Field::filled_on(grid, 0.0);
        out.data_mut().par_chunks_mut(BLOCK).enumerate().for_each_init(Vec::new, |scratch, (b, block)| {
            formula.eval_block(grid, b * BLOCK, &data, &noise, scratch, block);
        });
        ctx.check()?;
        Ok(vec![out.into()])
    }

    fn locality(_: &Self::Settings, _: &[bool]) -> Locality {
        Locality::Cellwise
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nodes::NodeKind;
    use std::sync::Arc;

    fn run(formula: &str, inputs: Vec<Option<Value>>, n: usize) -> Result<Field, OpError> {
        let s = ExpressionSettings { formula: formula.into(), ..ExpressionSettings::from_params(&NodeKind::Expression.default_params()).expect("defaults") };
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n, cancel: &cancel, steps: None, planet: Some(&crate::nodes::output::planet::EARTH), files: &[] };
        Ok(Expression::run(&s, &Inputs(&inputs), &ctx)?[0].as_field().expect("field").as_ref().clone())
    }

    #[test]
    fn the_default_formula_runs_on_an_input_and_errors_name_the_column_or_the_input() {
        let a = Some(Value::Field(Arc::new(Field::from_fn_dir(16, |d| d.x))));
        let s = ExpressionSettings::from_params(&NodeKind::Expression.default_params()).expect("defaults");
        let out = run(&s.formula, vec![a.clone(), None, None, None], 16).expect("runs");
        assert!(out.data().iter().all(|v| v.is_finite()));
        let err = run("a + ", vec![a.clone(), None, None, None], 16).expect_err("syntax");
        assert!(err.to_string().contains("column 5"), "{err}");
        let err = run("a + b", vec![a, None, None, None], 16).expect_err("b unconnected");
        assert!(err.to_string().contains("input 'b' is not connected"), "{err}");
    }

    /// Formulas that give NaN or infinity make the node report it (through the runner every
    /// node goes through), never a field that would silently become the deepest ocean.
    #[test]
    fn non_finite_results_are_an_error_on_the_node() {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let ctx = OpContext { tile: None, n: 8, cancel: &cancel, steps: None, planet: None, files: &[] };
        for formula in ["0^-1", "exp(1000)-exp(1000)", "(-8)^(1/3)"] {
            let mut p = NodeKind::Expression.default_params();
            p.insert("formula".into(), crate::nodes::ParamValue::Text(formula.into()));
            let e = NodeKind::Expression.run(&p, &[None, None, None, None], &ctx).expect_err(formula).to_string();
            assert!(e.contains("non-finite value") && e.contains("latitude"), "{formula}: {e}");
        }
        let mut p = NodeKind::Expression.default_params();
        p.insert("formula".into(), crate::nodes::ParamValue::Text("x / 0 + 2^10".into()));
        assert!(NodeKind::Expression.run(&p, &[None, None, None, None], &ctx).is_ok(), "finite formulas run");
    }

    #[test]
    fn position_formulas_are_seamless_resolution_independent_and_thread_independent() {
        let f = "smoothstep(-0.2, 0.4, noise(x * 3, y * 3, z * 3)) + 0.01 * lat";
        let (coarse, fine) = (run(f, vec![None; 4], 64).expect("runs"), run(f, vec![None; 4], 256).expect("runs"));
        let corr = crate::planet::field::correlation(coarse.data(), fine.resample(64).data());
        assert!(corr > 0.99, "{corr}");
        let go = |t| rayon::ThreadPoolBuilder::new().num_threads(t).build().expect("pool").install(|| run(f, vec![None; 4], 48).expect("runs"));
        assert_eq!(go(1).data(), go(2).data());
        // Across a seam and at a cube corner, neighbours differ like any neighbours.
        let (inside, across) = crate::planet::pipes::neighbour_steps(&fine);
        let max = |v: &[f32]| v.iter().copied().fold(0.0, f32::max);
        let (inner, seam) = (max(&inside), max(&across));
        assert!(seam <= 1.2 * inner, "{seam} across seams, {inner} inside faces");
        // Extremes stay finite where the functions are defined for every input.
        let wild = run("pow(abs(x) * 1e30, 2) / (y * 0) + sqrt(-1) + exp(-1000)", vec![None; 4], 8).expect("runs");
        assert!(wild.data().iter().all(|v| !v.is_nan()));
    }
}
