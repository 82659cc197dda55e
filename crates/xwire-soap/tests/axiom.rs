//! Apache Axiom's good and deliberately bad SOAP 1.1 and 1.2 messages
//! (`../shared/corpora/soap/axiom`): every good one reads as an envelope (and its fault,
//! where it has one, as a fault); every bad one is refused, by the reader or when its fault
//! is read, but for one that SOAP 1.2 itself accepts (see below).

use std::path::{Path, PathBuf};

use xwire_soap::{Envelope, Error};

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    out.sort();
    out
}

fn read(path: &Path) -> Result<Envelope, Error> {
    let bytes = std::fs::read(path).expect("readable");
    let env = Envelope::parse(&bytes)?;
    env.fault()?;
    Ok(env)
}

#[test]
fn good_messages_read_and_bad_ones_are_refused() {
    let Some(root) =
        xwire_conformance::corpus("soap/axiom/testing/axiom-testsuite/src/main/resources")
    else {
        return;
    };
    let mut good = 0;
    for v in ["soap11", "soap12"] {
        for f in files(&root.join("soap").join(v)) {
            if let Err(e) = read(&f) {
                panic!("{} should read: {e}", f.display());
            }
            good += 1;
        }
    }
    let mut bad = 0;
    let mut dirs = vec![root.join("badsoap")];
    dirs.extend(["soap11", "soap12"].map(|v| root.join("badsoap").join(v)));
    for d in dirs {
        for f in files(&d) {
            // Axiom refuses a processing instruction in a 1.2 message; SOAP 1.2 (part 1,
            // section 5, and the W3C test collection's T26) says a receiver ignores it.
            if f.ends_with("soap12/processing-instruction.xml") {
                let env = read(&f).expect("SOAP 1.2 ignores processing instructions");
                assert_eq!(env.version(), xwire_soap::Version::V12);
                continue;
            }
            match read(&f) {
                Ok(_) => panic!("{} should be refused", f.display()),
                Err(e) => eprintln!("refused {}: {e}", f.file_name().unwrap().to_string_lossy()),
            }
            bad += 1;
        }
    }
    eprintln!("axiom: {good} good messages read, {bad} bad ones refused");
    assert_eq!((good, bad), (10, 15), "the corpus changed");
}

#[test]
fn the_fault_samples_read_as_typed_faults() {
    let Some(root) =
        xwire_conformance::corpus("soap/axiom/testing/axiom-testsuite/src/main/resources")
    else {
        return;
    };
    let env = read(&root.join("soap/soap11/soapfault.xml")).expect("reads");
    let fault = env.fault().unwrap().expect("a fault");
    assert_eq!(fault.code, xwire_soap::Code::Receiver, "{fault}");
    assert_eq!(fault.reasons[0].lang, "en");
    assert_eq!(fault.node.as_deref(), Some("faultActor"));
    let detail = fault.detail.as_ref().expect("a detail");
    let entry = detail.root_element().expect("an entry");
    assert_eq!(detail.local_name(entry), "somefaultentry");
    let env = read(&root.join("soap/soap11/faultelements-with-comment.xml")).expect("reads");
    let fault = env.fault().unwrap().expect("a fault");
    assert_eq!(fault.code, xwire_soap::Code::MustUnderstand);
    assert_eq!(fault.reason(), "SOAP Must Understand Error");
    assert_eq!(
        fault.node.as_deref(),
        Some("http://schemas.xmlsoap.org/soap/envelope/actor/ultimateReceiver")
    );
}
