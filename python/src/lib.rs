//! `tsoro._tsoro`: the engine's games for Python, in OpenSpiel's terms. The Python package
//! `tsoro` (python/tsoro) re-exports it and adds the OpenSpiel and PettingZoo adapters.
//!
//! Every error from Python's input is a `ValueError` saying what is wrong and what is
//! allowed; nothing here panics on input.

pub mod codec;
pub mod play;

use codec::Codec;
use numpy::PyArrayDyn;
use numpy::ndarray::{ArrayD, IxDyn};
use play::{Loaded, Play};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};
use serde_json::Value;
use std::sync::Arc;
use tsoro_engine::AnyGame;
use tsoro_engine::catalogue::{self, ParamKind, Params, RulesetDef};
use tsoro_engine::morris::MorrisGame;
use tsoro_engine::sowing::SowingGame;

/// What `__reduce__` gives pickle: the function that rebuilds the object, and its arguments.
type Reduced<'py, A> = (Bound<'py, PyAny>, A);

/// OpenSpiel's player id of a finished game's "player to move".
const TERMINAL: i64 = -4;

fn value_error(e: impl ToString) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A ruleset loaded with its parameters, of either kind.
#[derive(Clone)]
enum AnyLoaded {
    Sowing(Arc<Loaded<SowingGame>>),
    Morris(Arc<Loaded<MorrisGame>>),
}

/// A game in play, of either kind.
#[derive(Clone)]
enum AnyPlay {
    Sowing(Play<SowingGame>),
    Morris(Play<MorrisGame>),
}

macro_rules! on {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            AnyLoaded::Sowing($x) => $body,
            AnyLoaded::Morris($x) => $body,
        }
    };
}

macro_rules! on_play {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            AnyPlay::Sowing($x) => $body,
            AnyPlay::Morris($x) => $body,
        }
    };
}

/// A Python value as a parameter's JSON value: `bool`, `int` and `str` as they are (a string
/// for an `int` or `bool` parameter is read as the command line reads it: `"12"`, `"true"`).
fn param_value(def: &RulesetDef, name: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    let spec = def.params.iter().find(|p| p.name == name).ok_or_else(|| {
        value_error(catalogue::ParamError::UnknownParam {
            ruleset: def.id.clone(),
            name: name.to_string(),
            known: def.params.iter().map(|p| p.name.clone()).collect(),
        })
    })?;
    let value = if v.is_instance_of::<PyBool>() {
        Value::Bool(v.extract::<bool>()?)
    } else if v.is_instance_of::<PyInt>() {
        match v.extract::<i64>() {
            Ok(i) => Value::from(i),
            Err(_) => Value::String(v.str()?.to_string()),
        }
    } else if v.is_instance_of::<PyString>() {
        let text: String = v.extract()?;
        return match spec.kind {
            ParamKind::Choice { .. } => {
                let v = Value::String(text);
                spec.check(&v).map_err(value_error)?;
                Ok(v)
            }
            _ => spec.parse(&text).map_err(value_error),
        };
    } else if v.is_instance_of::<PyFloat>() {
        Value::String(v.repr()?.to_string())
    } else {
        Value::String(format!("a {}", v.get_type().name()?))
    };
    spec.check(&value).map_err(value_error)?;
    Ok(value)
}

/// Loads a ruleset with parameters given as a dict of Python values.
fn load(ruleset: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<AnyLoaded> {
    let def = catalogue::get(ruleset).map_err(value_error)?;
    let mut given = Params::new();
    if let Some(d) = params {
        for (k, v) in d.iter() {
            let name: String = k
                .extract()
                .map_err(|_| value_error("parameter names are strings"))?;
            given.insert(name.clone(), param_value(def, &name, &v)?);
        }
    }
    let game = def.build(&given).map_err(value_error)?;
    let params = def.effective_params(&given);
    Ok(match game {
        AnyGame::Sowing(g) => AnyLoaded::Sowing(Loaded::new(g, def, params)),
        AnyGame::Morris(g) => AnyLoaded::Morris(Loaded::new(g, def, params)),
    })
}

/// The shipped rulesets: a list of dicts with `id`, `kind` (`sowing`, `morris` or `nhodo`),
/// `game`, `title` and `params` (each `name`, `type`, `default`, `allowed`, `description`).
/// `nhodo` is a stochastic model with no decisions: it cannot be loaded as a game.
#[pyfunction]
fn rulesets(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for def in catalogue::all() {
        let d = PyDict::new(py);
        d.set_item("id", &def.id)?;
        d.set_item("kind", def.kind.as_str())?;
        d.set_item("game", &def.game)?;
        d.set_item("title", &def.title)?;
        let params = PyList::empty(py);
        for p in &def.params {
            let pd = PyDict::new(py);
            pd.set_item("name", &p.name)?;
            pd.set_item("type", p.type_name())?;
            pd.set_item("default", json_to_py(py, &p.default)?)?;
            pd.set_item("allowed", p.range())?;
            pd.set_item("description", &p.description)?;
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        out.append(d)?;
    }
    Ok(out)
}

/// A JSON value as a Python value (via the `json` module: parameters are small).
fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// `load_game(ruleset, **params)`: the ruleset built with these parameters (the others at
/// their defaults). An unknown ruleset or parameter, or a value out of range, raises
/// `ValueError` naming it and what is allowed.
#[pyfunction]
#[pyo3(signature = (ruleset, **params))]
fn load_game(ruleset: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<PyGame> {
    Ok(PyGame {
        inner: load(ruleset, params)?,
    })
}

/// Rebuilds a state from its ruleset, parameters (JSON) and history (for pickling).
#[pyfunction]
fn _restore_state(
    py: Python<'_>,
    ruleset: &str,
    params: &str,
    history: Vec<u32>,
) -> PyResult<PyState> {
    let params: Value = serde_json::from_str(params).map_err(value_error)?;
    let d = json_to_py(py, &params)?;
    let game = load(ruleset, Some(d.cast::<PyDict>()?))?;
    let mut play = PyGame { inner: game }.initial();
    for id in history {
        on_play!(&mut play, p => p.apply_action(id)).map_err(value_error)?;
    }
    Ok(PyState { inner: play })
}

/// A ruleset loaded with its parameters: makes initial states, converts actions.
#[pyclass(name = "Game", module = "tsoro._tsoro", frozen)]
struct PyGame {
    inner: AnyLoaded,
}

impl PyGame {
    fn initial(&self) -> AnyPlay {
        match &self.inner {
            AnyLoaded::Sowing(l) => AnyPlay::Sowing(Play::new(l.clone())),
            AnyLoaded::Morris(l) => AnyPlay::Morris(Play::new(l.clone())),
        }
    }
}

#[pymethods]
impl PyGame {
    /// The start of a game.
    fn new_initial_state(&self) -> PyState {
        PyState {
            inner: self.initial(),
        }
    }

    /// The ruleset id.
    #[getter]
    fn ruleset(&self) -> &'static str {
        on!(&self.inner, l => &l.def.id)
    }

    /// `sowing` or `morris`.
    #[getter]
    fn kind(&self) -> &'static str {
        on!(&self.inner, l => l.def.kind.as_str())
    }

    /// Every parameter's value in force (the defaults filled in), as a dict.
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let p = on!(&self.inner, l => serde_json::to_value(&l.params)).map_err(value_error)?;
        json_to_py(py, &p)
    }

    /// Two.
    fn num_players(&self) -> usize {
        2
    }

    /// How many action ids there are (every legal action's id is below it).
    fn num_distinct_actions(&self) -> u32 {
        on!(&self.inner, l => l.game.num_actions())
    }

    /// The shape of `State.observation_tensor()`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        on!(&self.inner, l => l.game.observation_shape())
    }

    /// What each channel of the observation tensor holds, in order.
    fn observation_channels(&self) -> Vec<&'static str> {
        match &self.inner {
            AnyLoaded::Sowing(_) => codec::SOWING_CHANNELS.to_vec(),
            AnyLoaded::Morris(_) => codec::MORRIS_CHANNELS.to_vec(),
        }
    }

    /// The text of an action id in the project's notation (`sow i,6`, `move d5-d6`).
    fn action_to_string(&self, action: i64) -> PyResult<String> {
        let id = action_id(action)?;
        on!(&self.inner, l => l.action_to_string(id)).map_err(value_error)
    }

    /// The id of an action written in the notation, or as JSON (`{"sow":"i,6"}`).
    fn string_to_action(&self, text: &str) -> PyResult<u32> {
        on!(&self.inner, l => l.string_to_action(text)).map_err(value_error)
    }

    /// The action as a replay record writes it: a JSON string (`{"sow":"i,6"}`).
    fn action_to_json(&self, action: i64) -> PyResult<String> {
        let id = action_id(action)?;
        on!(&self.inner, l => l.action_json(id))
            .map(|v| v.to_string())
            .map_err(value_error)
    }

    fn __repr__(&self) -> PyResult<String> {
        let p = on!(&self.inner, l => serde_json::to_string(&l.params)).map_err(value_error)?;
        Ok(format!("<tsoro game {} {p}>", self.ruleset()))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let p = on!(&self.inner, l => serde_json::to_string(&l.params)).map_err(value_error)?;
        Ok((
            py.import("tsoro._tsoro")?.getattr("_restore_game")?,
            (self.ruleset().to_string(), p),
        ))
    }
}

/// Rebuilds a game from its ruleset and parameters (JSON), for pickling.
#[pyfunction]
fn _restore_game(py: Python<'_>, ruleset: &str, params: &str) -> PyResult<PyGame> {
    let params: Value = serde_json::from_str(params).map_err(value_error)?;
    let d = json_to_py(py, &params)?;
    Ok(PyGame {
        inner: load(ruleset, Some(d.cast::<PyDict>()?))?,
    })
}

/// An action id from Python: a non-negative integer.
fn action_id(action: i64) -> PyResult<u32> {
    u32::try_from(action).map_err(|_| value_error(format!("action {action} is out of range")))
}

/// A position of a game in play, and the actions that led to it.
#[pyclass(name = "State", module = "tsoro._tsoro")]
struct PyState {
    inner: AnyPlay,
}

#[pymethods]
impl PyState {
    /// 0 (A) or 1 (B) to move, or -4 (OpenSpiel's terminal player id) once the game is over.
    fn current_player(&self) -> i64 {
        on_play!(&self.inner, p => p.current_player()).map_or(TERMINAL, |p| p as i64)
    }

    /// The legal action ids, ascending; empty once the game is over.
    fn legal_actions(&mut self) -> Vec<u32> {
        on_play!(&mut self.inner, p => p.legal_actions())
    }

    /// Applies a legal action id; an illegal one raises `ValueError` listing the legal ones.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let id = action_id(action)?;
        on_play!(&mut self.inner, p => p.apply_action(id)).map_err(value_error)
    }

    /// The text of an action id in the project's notation (`sow i,6`). `player` is accepted
    /// for OpenSpiel's signature and does not change the text.
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<i64>) -> PyResult<String> {
        let id = action_id(action.unwrap_or(player_or_action))?;
        on_play!(&self.inner, p => p.loaded.action_to_string(id)).map_err(value_error)
    }

    /// The id of an action written in the notation or as JSON. `player` is accepted for
    /// OpenSpiel's signature.
    #[pyo3(signature = (player_or_text, text=None))]
    fn string_to_action(
        &self,
        player_or_text: &Bound<'_, PyAny>,
        text: Option<&str>,
    ) -> PyResult<u32> {
        let t: String = match text {
            Some(t) => t.to_string(),
            None => player_or_text
                .extract()
                .map_err(|_| value_error("string_to_action takes the action's text"))?,
        };
        on_play!(&self.inner, p => p.loaded.string_to_action(&t)).map_err(value_error)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        on_play!(&self.inner, p => p.is_terminal())
    }

    /// `[A's, B's]`: +1 the winner, -1 the loser, 0 both in a draw or while the game goes on.
    fn returns(&self) -> Vec<f64> {
        on_play!(&self.inner, p => p.returns()).to_vec()
    }

    /// A copy that plays on independently.
    fn clone(&self) -> PyState {
        PyState {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// The action ids played so far.
    fn history(&self) -> Vec<u32> {
        on_play!(&self.inner, p => p.history().to_vec())
    }

    /// Moves played so far (the length of `history()`).
    fn move_number(&self) -> usize {
        on_play!(&self.inner, p => p.history().len())
    }

    /// The game so far as `tsoro replay` prints it (a JSON string): `states` (the start and
    /// after each action), `events` (what each action did) and `result`.
    fn to_json(&self) -> PyResult<String> {
        on_play!(&self.inner, p => p.to_json()).map_err(value_error)
    }

    /// The game so far as `tsoro replay` reads it (a JSON string): ruleset, every parameter,
    /// the actions as JSON.
    fn record(&self) -> PyResult<String> {
        on_play!(&self.inner, p => p.record())
            .map(|v| v.to_string())
            .map_err(value_error)
    }

    /// This state alone as JSON (the last of `to_json()`'s states): board, player to move,
    /// legal actions in the notation's JSON, captures, and what the decision asks.
    fn state_json(&self) -> String {
        on_play!(&self.inner, p => p.state_json())
    }

    /// The observation as a float32 numpy array of `Game.observation_tensor_shape()` (the same
    /// for both players: the games have perfect information). Its channels:
    /// `Game.observation_channels()`. `player` is accepted for OpenSpiel's signature.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &mut self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        if let Some(p) = player
            && !(0..2).contains(&p)
        {
            return Err(value_error(format!("player {p} is out of range: 0 or 1")));
        }
        let (shape, data) = on_play!(&mut self.inner, p => p.observation());
        let arr = ArrayD::from_shape_vec(IxDyn(&shape), data).map_err(value_error)?;
        Ok(numpy::PyArray::from_owned_array(py, arr))
    }

    /// The board as text (B's rows above A's, holes 1..N as A sees them; line games as the
    /// README draws their boards).
    fn __str__(&self) -> String {
        on_play!(&self.inner, p => p.render())
    }

    fn __repr__(&self) -> String {
        format!(
            "<tsoro state after {} actions>\n{}",
            self.move_number(),
            self.__str__()
        )
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (String, String, Vec<u32>)>> {
        let (id, params) = on_play!(&self.inner, p => (p.loaded.def.id.clone(), serde_json::to_string(&p.loaded.params)));
        Ok((
            py.import("tsoro._tsoro")?.getattr("_restore_state")?,
            (id, params.map_err(value_error)?, self.history()),
        ))
    }
}

/// The module.
#[pymodule]
fn _tsoro(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_state, m)?)?;
    m.add_function(wrap_pyfunction!(_restore_game, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add("ENGINE_VERSION", tsoro_engine::VERSION)?;
    Ok(())
}
