//! The Expression node's formula language: parsed once (with the `winnow` parser crate) into a
//! tree, checked (names, argument counts) with the column of every mistake, compiled to a
//! short list of operations, and evaluated over blocks of cells, one operation at a time
//! across the block, so each inner loop is a plain run over floats.
//!
//! Syntax: numbers (`2`, `0.5`, `1e-3`), `+ - * /`, `^` (power, right-associative), unary
//! minus, parentheses, variables and function calls (see [`Var`] and [`Func`]).

use crate::planet::fbm::FastPerlin;
use winnow::combinator::{alt, cut_err, delimited, expression, opt, peek, preceded, separated, terminated, Infix, Prefix};
use winnow::prelude::*;
use winnow::token::{one_of, take_while};
use winnow::LocatingSlice;

type Input<'i> = LocatingSlice<&'i str>;
type PResult<O> = winnow::ModalResult<O>;

/// A mistake in a formula, at a 1-based column (in characters).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("formula, column {column}: {message}")]
pub struct FormulaError {
    /// Column of the mistake, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A per-cell variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Var {
    /// Inputs a, b, c, d (index 0..4).
    Input(u8),
    /// Unit-sphere coordinates of the cell centre.
    X,
    /// See [`Var::X`].
    Y,
    /// See [`Var::X`].
    Z,
    /// Latitude, degrees (north positive).
    Lat,
    /// Longitude, degrees (0 at +Z, east towards +X).
    Lon,
    /// Mean cell edge, degrees of arc (the resolution's cell size).
    Cell,
}

impl Var {
    fn named(name: &str) -> Option<Var> {
        Some(match name {
            "a" => Var::Input(0),
            "b" => Var::Input(1),
            "c" => Var::Input(2),
            "d" => Var::Input(3),
            "x" => Var::X,
            "y" => Var::Y,
            "z" => Var::Z,
            "lat" => Var::Lat,
            "lon" => Var::Lon,
            "cell" => Var::Cell,
            _ => return None,
        })
    }
}

/// A function of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    /// Negation (unary minus).
    Neg,
    /// Absolute value.
    Abs,
    /// Square root (of the value clamped at 0).
    Sqrt,
    /// Sine of radians.
    Sin,
    /// Cosine of radians.
    Cos,
    /// e to the power.
    Exp,
    /// Round down.
    Floor,
    /// Sum.
    Add,
    /// Difference.
    Sub,
    /// Product.
    Mul,
    /// Quotient (0 where the divisor is 0).
    Div,
    /// Power (`pow(a, b)` or `a ^ b`).
    Pow,
    /// Smaller of two.
    Min,
    /// Larger of two.
    Max,
    /// `clamp(v, lo, hi)`.
    Clamp,
    /// `smoothstep(edge0, edge1, v)`: 0 below edge0, 1 above edge1, a smooth S between.
    Smoothstep,
    /// `mix(a, b, t)`: a + (b - a) t.
    Mix,
    /// `noise(x, y, z)`: Perlin noise (about -1..1) at a point of space, with the node's seed.
    Noise,
}

impl Func {
    /// The function a formula calls by `name`, and how many arguments it takes.
    fn named(name: &str) -> Option<(Func, usize)> {
        Some(match name {
            "abs" => (Func::Abs, 1),
            "sqrt" => (Func::Sqrt, 1),
            "sin" => (Func::Sin, 1),
            "cos" => (Func::Cos, 1),
            "exp" => (Func::Exp, 1),
            "floor" => (Func::Floor, 1),
            "pow" => (Func::Pow, 2),
            "min" => (Func::Min, 2),
            "max" => (Func::Max, 2),
            "clamp" => (Func::Clamp, 3),
            "smoothstep" => (Func::Smoothstep, 3),
            "mix" => (Func::Mix, 3),
            "noise" => (Func::Noise, 3),
            _ => return None,
        })
    }
}

/// The names a formula may use, for messages and tooltips.
pub const VARIABLES: &str = "a, b, c, d (the inputs), x, y, z (the unit sphere), lat, lon (degrees), cell (the cell size in degrees), pi";
/// See [`VARIABLES`].
pub const FUNCTIONS: &str = "abs, sqrt, sin, cos, exp, floor, pow, min, max, clamp(v, lo, hi), smoothstep(e0, e1, v), mix(a, b, t), noise(x, y, z)";

/// The parsed tree; names keep their byte offset for messages.
#[derive(Debug, Clone)]
enum Ast {
    Num(f32),
    Name(String, usize),
    Call(String, usize, Vec<Ast>),
    Apply(Func, Vec<Ast>),
}

fn ws<'i>(i: &mut Input<'i>) -> PResult<()> {
    take_while(0.., |c: char| c.is_whitespace()).void().parse_next(i)
}

fn number(i: &mut Input<'_>) -> PResult<Ast> {
    let digits = |i: &mut Input<'_>| take_while(1.., |c: char| c.is_ascii_digit()).void().parse_next(i);
    let mantissa = alt(((digits, opt(('.', opt(digits)))).void(), ('.', digits).void()));
    let exponent = opt((one_of(['e', 'E']), opt(one_of(['+', '-'])), digits));
    (mantissa, exponent).take().try_map(|t: &str| t.parse::<f32>().map(Ast::Num)).parse_next(i)
}

fn name_or_call(i: &mut Input<'_>) -> PResult<Ast> {
    let ((name, span), args) = (
        (take_while(1, |c: char| c.is_ascii_alphabetic() || c == '_'), take_while(0.., |c: char| c.is_ascii_alphanumeric() || c == '_')).take().with_span(),
        // After an opening parenthesis a mistake is reported where it is (no backtracking).
        opt(preceded((ws, '('), cut_err((separated(0.., expr, ','), ws, ')')).map(|(a, (), _)| a))),
    )
        .parse_next(i)?;
    Ok(match args {
        Some(args) => Ast::Call(name.to_string(), span.start, args),
        None => Ast::Name(name.to_string(), span.start),
    })
}

fn operand(i: &mut Input<'_>) -> PResult<Ast> {
    delimited(ws, alt((number, name_or_call, preceded('(', cut_err((expr, ws, ')')).map(|(e, (), _)| e)))), ws).parse_next(i)
}

/// After an operator an operand must follow: a mistake there is reported where it is (at the
/// `)` of `x * )`), not where the parser last had a choice.
fn operand_follows(i: &mut Input<'_>) -> PResult<()> {
    cut_err(peek(one_of(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '(' || c == '-'))).void().parse_next(i)
}

fn expr(i: &mut Input<'_>) -> PResult<Ast> {
    expression(operand)
        .prefix(delimited(ws, '-', (ws, operand_follows)).value(Prefix(8, |_: &mut Input<'_>, a| Ok(Ast::Apply(Func::Neg, vec![a])))))
        .infix(delimited(ws, terminated(one_of(['+', '-', '*', '/', '^']), (ws, operand_follows)), ws).map(|op| match op {
            '+' => Infix::Left(5, |_: &mut Input<'_>, a, b| Ok(Ast::Apply(Func::Add, vec![a, b]))),
            '-' => Infix::Left(5, |_: &mut Input<'_>, a, b| Ok(Ast::Apply(Func::Sub, vec![a, b]))),
            '*' => Infix::Left(7, |_: &mut Input<'_>, a, b| Ok(Ast::Apply(Func::Mul, vec![a, b]))),
            '/' => Infix::Left(7, |_: &mut Input<'_>, a, b| Ok(Ast::Apply(Func::Div, vec![a, b]))),
            _ => Infix::Right(9, |_: &mut Input<'_>, a, b| Ok(Ast::Apply(Func::Pow, vec![a, b]))),
        }))
        .parse_next(i)
}

/// One step of a compiled formula: its result goes to the register of its own index.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Const(f32),
    Load(Var),
    Apply(Func, [u16; 3]),
}

/// A checked, compiled formula.
#[derive(Debug, Clone)]
pub struct Formula {
    ops: Vec<Op>,
    /// Which inputs (a..d) it reads.
    pub inputs: [bool; 4],
    needs_direction: bool,
}

/// The column (from 1, in characters) of byte offset `at` in `text`.
fn column(text: &str, at: usize) -> usize {
    text.get(..at).map_or(at, |s| s.chars().count()) + 1
}

impl Formula {
    /// Parses and checks `text`.
    pub fn parse(text: &str) -> Result<Formula, FormulaError> {
        if text.trim().is_empty() {
            return Err(FormulaError { column: 1, message: "the formula is empty".into() });
        }
        let ast = expr.parse(LocatingSlice::new(text)).map_err(|e| {
            let at = e.offset();
            let message = match text.get(at..).and_then(|rest| rest.chars().next()) {
                None => "the formula ends too early".to_string(),
                Some(c) => format!("unexpected '{c}'"),
            };
            FormulaError { column: column(text, at), message }
        })?;
        let mut f = Formula { ops: Vec::new(), inputs: [false; 4], needs_direction: false };
        f.compile(&ast, text)?;
        Ok(f)
    }

    fn push(&mut self, op: Op) -> Result<u16, FormulaError> {
        self.ops.push(op);
        u16::try_from(self.ops.len() - 1).map_err(|_| FormulaError { column: 1, message: "the formula is too long".into() })
    }

    fn compile(&mut self, ast: &Ast, text: &str) -> Result<u16, FormulaError> {
        match ast {
            Ast::Num(v) => self.push(Op::Const(*v)),
            Ast::Name(name, at) => {
                if name == "pi" {
                    return self.push(Op::Const(std::f32::consts::PI));
                }
                let var = Var::named(name).ok_or_else(|| FormulaError { column: column(text, *at), message: format!("unknown name '{name}' (names: {VARIABLES})") })?;
                match var {
                    Var::Input(k) => self.inputs[k as usize] = true,
                    Var::Cell => {}
                    _ => self.needs_direction = true,
                }
                self.push(Op::Load(var))
            }
            Ast::Call(name, at, args) => {
                let (func, arity) = Func::named(name).ok_or_else(|| FormulaError { column: column(text, *at), message: format!("unknown function '{name}' (functions: {FUNCTIONS})") })?;
                if args.len() != arity {
                    return Err(FormulaError { column: column(text, *at), message: format!("{name} takes {arity} argument{}, not {}", if arity == 1 { "" } else { "s" }, args.len()) });
                }
                self.apply(func, args, text)
            }
            Ast::Apply(func, args) => self.apply(*func, args, text),
        }
    }

    fn apply(&mut self, func: Func, args: &[Ast], text: &str) -> Result<u16, FormulaError> {
        let mark = self.ops.len();
        let mut regs = [0u16; 3];
        for (k, a) in args.iter().enumerate().take(3) {
            regs[k] = self.compile(a, text)?;
        }
        // Constant arguments give a constant (noise is left to run per cell: it needs the
        // node's seed).
        let constant = |r: u16| match self.ops[r as usize] {
            Op::Const(v) => Some(v),
            _ => None,
        };
        let values: Option<Vec<f32>> = regs[..args.len()].iter().map(|&r| constant(r)).collect();
        if let (Some(v), false) = (values, func == Func::Noise) {
            let arg = |k: usize| v.get(k).copied().unwrap_or(0.0);
            let folded = scalar(func, arg(0), arg(1), arg(2), &FastPerlin::new(0));
            self.ops.truncate(mark);
            return self.push(Op::Const(folded));
        }
        self.push(Op::Apply(func, regs))
    }

    /// Evaluates the formula for `out.len()` values starting at storage position `first` of
    /// `grid` (the whole planet or a tile); `inputs` are the connected inputs' full data (a..d; every input in
    /// [`Formula::inputs`] must be given, as the Expression node checks, since a missing one
    /// reads as 0), `scratch` a buffer the caller keeps between calls.
    pub fn eval_block(&self, grid: crate::planet::Grid, first: usize, inputs: &[Option<&[f32]>; 4], noise: &FastPerlin, scratch: &mut Vec<f32>, out: &mut [f32]) {
        let len = out.len();
        scratch.resize(len * (self.ops.len() + 3), 0.0);
        let (dirs, regs) = scratch.split_at_mut(3 * len);
        if self.needs_direction {
            for k in 0..len {
                let d = grid.direction(first + k);
                dirs[k] = d.x;
                dirs[len + k] = d.y;
                dirs[2 * len + k] = d.z;
            }
        }
        for (r, op) in self.ops.iter().enumerate() {
            let (done, rest) = regs.split_at_mut(r * len);
            let o = &mut rest[..len];
            let reg = |i: u16| &done[i as usize * len..][..len];
            match *op {
                Op::Const(v) => o.fill(v),
                Op::Load(var) => match var {
                    Var::Input(k) => match inputs[k as usize] {
                        Some(data) => o.copy_from_slice(&data[first..first + len]),
                        None => o.fill(0.0),
                    },
                    Var::X => o.copy_from_slice(&dirs[..len]),
                    Var::Y => o.copy_from_slice(&dirs[len..2 * len]),
                    Var::Z => o.copy_from_slice(&dirs[2 * len..]),
                    Var::Lat => o.iter_mut().enumerate().for_each(|(k, v)| *v = dirs[len + k].clamp(-1.0, 1.0).asin().to_degrees()),
                    Var::Lon => o.iter_mut().enumerate().for_each(|(k, v)| *v = dirs[k].atan2(dirs[2 * len + k]).to_degrees()),
                    Var::Cell => o.fill(crate::planet::diffusion::cell_angle(grid.n()).to_degrees()),
                },
                Op::Apply(f, [i, j, k]) => lanes(f, o, reg(i), reg(j), reg(k), noise),
            }
        }
        out.copy_from_slice(&regs[(self.ops.len() - 1) * len..][..len]);
    }
}

/// One function on one cell's values (unused arguments are ignored).
#[inline(always)]
fn scalar(f: Func, a: f32, b: f32, c: f32, noise: &FastPerlin) -> f32 {
    match f {
        Func::Neg => -a,
        Func::Abs => a.abs(),
        Func::Sqrt => a.max(0.0).sqrt(),
        Func::Sin => a.sin(),
        Func::Cos => a.cos(),
        Func::Exp => a.exp(),
        Func::Floor => a.floor(),
        Func::Add => a + b,
        Func::Sub => a - b,
        Func::Mul => a * b,
        Func::Div => {
            if b == 0.0 {
                0.0
            } else {
                a / b
            }
        }
        Func::Pow => a.powf(b),
        Func::Min => a.min(b),
        Func::Max => a.max(b),
        Func::Clamp => a.max(b).min(c),
        Func::Smoothstep => {
            let t = if b == a {
                if c < a {
                    0.0
                } else {
                    1.0
                }
            } else {
                ((c - a) / (b - a)).clamp(0.0, 1.0)
            };
            t * t * (3.0 - 2.0 * t)
        }
        Func::Mix => a + (b - a) * c,
        Func::Noise => noise.get([f64::from(a), f64::from(b), f64::from(c)]) as f32,
    }
}

/// One function over a block: the match is outside the loops, so the common operations run
/// as plain (vectorisable) loops.
#[inline(always)]
fn lanes(f: Func, o: &mut [f32], a: &[f32], b: &[f32], c: &[f32], noise: &FastPerlin) {
    macro_rules! each {
        (|$x:ident, $y:ident, $z:ident| $e:expr) => {
            for (((o, &$x), &$y), &$z) in o.iter_mut().zip(a).zip(b).zip(c) {
                *o = $e;
            }
        };
    }
    match f {
        Func::Add => each!(|x, y, _z| x + y),
        Func::Sub => each!(|x, y, _z| x - y),
        Func::Mul => each!(|x, y, _z| x * y),
        Func::Min => each!(|x, y, _z| x.min(y)),
        Func::Max => each!(|x, y, _z| x.max(y)),
        Func::Neg => each!(|x, _y, _z| -x),
        Func::Abs => each!(|x, _y, _z| x.abs()),
        Func::Mix => each!(|x, y, z| x + (y - x) * z),
        Func::Clamp => each!(|x, y, z| x.max(y).min(z)),
        _ => each!(|x, y, z| scalar(f, x, y, z, noise)),
    }
}

#[cfg(test)]
#[path = "formula_tests.rs"]
mod tests;
