//! `xwire completions`, run as a program.

use std::process::{Command, Stdio};

#[test]
fn completions_print_a_script_and_survive_a_closed_pipe() {
    let out = Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(["completions", "bash"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("_xwire()"));

    // The reader goes away before (or while) the script is written, as with `| head -1`:
    // no panic, exit code 0.
    let mut child = Command::new(env!("CARGO_BIN_EXE_xwire"))
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
