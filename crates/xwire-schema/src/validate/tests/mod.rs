mod automaton;
mod build;
mod validator;
