//! What an op receives besides its inputs: resolution, cancellation, typed parameter access.

use super::kinds::NodeKind;
use super::params::ParamValue;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// Why an op did not produce a result.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum OpError {
    /// The evaluation was cancelled by a newer request.
    #[error("cancelled")]
    Cancelled,
    /// A value the op cannot work with.
    #[error("{0}")]
    Invalid(String),
}

/// Evaluation context of one op call.
pub struct OpContext<'a> {
    /// Cells per face edge of the fields to produce.
    pub n: usize,
    /// Set when the evaluation should stop as soon as possible.
    pub cancel: &'a AtomicBool,
    /// Steps done and steps in all of a long op (erosion), for progress; `None` where nobody
    /// watches.
    pub steps: Option<&'a StepProgress>,
}

/// Progress inside one long-running op.
#[derive(Debug, Default)]
pub struct StepProgress {
    /// Steps finished.
    pub done: std::sync::atomic::AtomicUsize,
    /// Steps the op will run (0 while unknown).
    pub total: std::sync::atomic::AtomicUsize,
}

impl OpContext<'_> {
    /// `Err(Cancelled)` once cancellation was requested.
    pub fn check(&self) -> Result<(), OpError> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(OpError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Parameters of one node with typed getters that fall back to the kind's defaults.
pub struct Params<'a> {
    kind: NodeKind,
    values: &'a BTreeMap<String, ParamValue>,
}

impl<'a> Params<'a> {
    /// Wraps the stored values of a node of `kind`.
    pub fn new(kind: NodeKind, values: &'a BTreeMap<String, ParamValue>) -> Self {
        Params { kind, values }
    }

    fn get(&self, name: &str) -> ParamValue {
        match self.values.get(name) {
            Some(v) => v.clone(),
            None => self.kind.param(name).map(|d| d.default_value()).unwrap_or_default(),
        }
    }

    /// A float parameter (0 if missing or of another type).
    pub fn float(&self, name: &str) -> f32 {
        match self.get(name) {
            ParamValue::Float(v) => v,
            ParamValue::Int(v) => v as f32,
            _ => 0.0,
        }
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            ParamValue::Int(v) => v,
            ParamValue::Float(v) => v as i64,
            _ => 0,
        }
    }

    /// A boolean parameter (false if missing or of another type).
    pub fn boolean(&self, name: &str) -> bool {
        matches!(self.get(name), ParamValue::Bool(true))
    }

    /// A seed parameter.
    pub fn seed(&self) -> u32 {
        match self.get("seed") {
            ParamValue::Seed(v) => v,
            _ => 0,
        }
    }

    /// A choice parameter.
    pub fn choice(&self, name: &str) -> String {
        match self.get(name) {
            ParamValue::Choice(s) => s,
            _ => String::new(),
        }
    }

    /// A curve parameter.
    pub fn curve(&self, name: &str) -> Vec<[f32; 2]> {
        match self.get(name) {
            ParamValue::Curve(p) => p,
            _ => Vec::new(),
        }
    }

    /// A matrix parameter.
    pub fn matrix(&self, name: &str) -> Vec<f32> {
        match self.get(name) {
            ParamValue::Matrix(m) => m,
            _ => Vec::new(),
        }
    }
}
