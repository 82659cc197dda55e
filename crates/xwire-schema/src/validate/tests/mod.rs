mod automaton;
mod build;
