//! tsoro-engine: rules of the four-row sowing games (tsoro, njombwa) and their relatives.
