//! Workflow documents: a Kepler/Ptolemy MoML model and a WS-BPEL process, both attribute-heavy
//! and nested.

use std::fmt::Write;

use super::text::{escape, records_until, sentence};
use super::Rng;

const ACTORS: &[(&str, &str)] = &[
    ("Ramp", "ptolemy.actor.lib.Ramp"),
    ("Display", "ptolemy.actor.lib.gui.Display"),
    ("Expression", "ptolemy.actor.lib.Expression"),
    ("FileReader", "ptolemy.actor.lib.io.FileReader"),
    ("WebService", "org.sdm.spa.WebService"),
    ("RExpression", "org.ecoinformatics.seek.R.RExpression"),
    ("SequencePlotter", "ptolemy.actor.lib.gui.SequencePlotter"),
    ("StringReplace", "ptolemy.actor.lib.string.StringReplace"),
];

/// A Kepler workflow in MoML (Ptolemy's Modeling Markup Language, without its DOCTYPE): a
/// composite actor with a director, actors carrying properties, ports and locations, nested
/// composites, relations and links; about `size` bytes.
pub fn moml(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(concat!(
        "<?xml version=\"1.0\" standalone=\"no\"?>\n",
        "<entity name=\"workflow\" class=\"ptolemy.actor.TypedCompositeActor\">\n",
        "  <property name=\"_createdBy\" class=\"ptolemy.kernel.attributes.VersionAttribute\" value=\"8.0.1\"/>\n",
        "  <property name=\"SDF Director\" class=\"ptolemy.domains.sdf.kernel.SDFDirector\">\n",
        "    <property name=\"iterations\" class=\"ptolemy.data.expr.Parameter\" value=\"100\"/>\n",
        "    <property name=\"_location\" class=\"ptolemy.kernel.util.Location\" value=\"[70.0, 45.0]\"/>\n",
        "  </property>\n",
    ));
    let mut n = 0;
    records_until(&mut out, size, 0, |out| {
        // A composite of a few actors wired in a chain.
        let _ = writeln!(
            out,
            "  <entity name=\"stage{n}\" class=\"ptolemy.actor.TypedCompositeActor\">\n    <property name=\"_location\" class=\"ptolemy.kernel.util.Location\" value=\"[{}.0, {}.0]\"/>\n    <port name=\"in\" class=\"ptolemy.actor.TypedIOPort\"><property name=\"input\"/></port>\n    <port name=\"out\" class=\"ptolemy.actor.TypedIOPort\"><property name=\"output\"/></port>",
            rng.below(800),
            rng.below(600)
        );
        let k = 2 + rng.below(4) as usize;
        for a in 0..k {
            let (name, class) = *rng.pick(ACTORS);
            let _ = writeln!(
                out,
                "    <entity name=\"{name}{a}\" class=\"{class}\">\n      <property name=\"expression\" class=\"ptolemy.kernel.util.StringAttribute\" value=\"{}\"/>\n      <property name=\"firingCountLimit\" class=\"ptolemy.data.expr.Parameter\" value=\"{}\"/>\n      <property name=\"_location\" class=\"ptolemy.kernel.util.Location\" value=\"[{}.0, {}.0]\"/>\n      <port name=\"input\" class=\"ptolemy.actor.TypedIOPort\">\n        <property name=\"input\"/>\n        <property name=\"_type\" class=\"ptolemy.actor.TypeAttribute\" value=\"double\"/>\n      </port>\n      <port name=\"output\" class=\"ptolemy.actor.TypedIOPort\"><property name=\"output\"/></port>\n    </entity>",
                escape(&format!("x * {} + \"{}\"", rng.below(10), sentence(&mut rng, 1))),
                rng.below(10),
                rng.below(800),
                rng.below(600)
            );
        }
        for a in 0..=k {
            let _ = writeln!(
                out,
                "    <relation name=\"r{a}\" class=\"ptolemy.actor.TypedIORelation\"><property name=\"width\" class=\"ptolemy.data.expr.Parameter\" value=\"1\"/></relation>"
            );
        }
        out.push_str("    <link port=\"in\" relation=\"r0\"/>\n");
        for a in 0..k {
            let (name, _) = ACTORS[0];
            let _ = writeln!(
                out,
                "    <link port=\"{name}{a}.input\" relation=\"r{a}\"/>\n    <link port=\"{name}{a}.output\" relation=\"r{}\"/>",
                a + 1
            );
        }
        let _ = writeln!(
            out,
            "    <link port=\"out\" relation=\"r{k}\"/>\n  </entity>"
        );
        n += 1;
    });
    for i in 0..n {
        let _ = writeln!(out, "  <relation name=\"top{i}\" class=\"ptolemy.actor.TypedIORelation\"/>\n  <link port=\"stage{i}.out\" relation=\"top{i}\"/>");
        if i + 1 < n {
            let _ = writeln!(
                out,
                "  <link port=\"stage{}.in\" relation=\"top{i}\"/>",
                i + 1
            );
        }
    }
    out.push_str("</entity>\n");
    out.into_bytes()
}

/// A WS-BPEL 2.0 executable process: partner links, variables, correlation sets and a main
/// sequence of receive / assign (copy with XPath expressions) / invoke / if / while / flow with
/// links, nested a few levels; about `size` bytes.
pub fn bpel(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 4096);
    out.push_str(concat!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
        "<bpel:process name=\"LoanApproval\" targetNamespace=\"urn:example:loan\" ",
        "xmlns:bpel=\"http://docs.oasis-open.org/wsbpel/2.0/process/executable\" ",
        "xmlns:tns=\"urn:example:loan\" xmlns:lns=\"urn:example:loan:wsdl\" ",
        "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" ",
        "queryLanguage=\"urn:oasis:names:tc:wsbpel:2.0:sublang:xpath1.0\" ",
        "expressionLanguage=\"urn:oasis:names:tc:wsbpel:2.0:sublang:xpath1.0\">\n",
        "  <bpel:import namespace=\"urn:example:loan:wsdl\" location=\"loan.wsdl\" importType=\"http://schemas.xmlsoap.org/wsdl/\"/>\n",
        "  <bpel:partnerLinks>\n",
        "    <bpel:partnerLink name=\"customer\" partnerLinkType=\"lns:loanPartnerLT\" myRole=\"loanService\"/>\n",
        "    <bpel:partnerLink name=\"approver\" partnerLinkType=\"lns:loanApprovalLT\" partnerRole=\"approver\"/>\n",
        "    <bpel:partnerLink name=\"assessor\" partnerLinkType=\"lns:riskAssessmentLT\" partnerRole=\"assessor\"/>\n",
        "  </bpel:partnerLinks>\n",
        "  <bpel:variables>\n",
        "    <bpel:variable name=\"request\" messageType=\"lns:creditInformationMessage\"/>\n",
        "    <bpel:variable name=\"risk\" messageType=\"lns:riskAssessmentMessage\"/>\n",
        "    <bpel:variable name=\"approval\" messageType=\"lns:approvalMessage\"/>\n",
        "  </bpel:variables>\n",
        "  <bpel:correlationSets><bpel:correlationSet name=\"loan\" properties=\"tns:loanId\"/></bpel:correlationSets>\n",
        "  <bpel:sequence name=\"main\">\n",
        "    <bpel:receive name=\"receive1\" partnerLink=\"customer\" portType=\"lns:loanServicePT\" operation=\"request\" variable=\"request\" createInstance=\"yes\">\n",
        "      <bpel:correlations><bpel:correlation set=\"loan\" initiate=\"yes\"/></bpel:correlations>\n",
        "    </bpel:receive>\n",
    ));
    let mut n = 0;
    records_until(&mut out, size, 200, |out| {
        let limit = 1000 * (1 + rng.below(100));
        let _ = write!(
            out,
            concat!(
                "    <bpel:scope name=\"step{n}\">\n",
                "      <bpel:faultHandlers><bpel:catchAll><bpel:rethrow/></bpel:catchAll></bpel:faultHandlers>\n",
                "      <bpel:sequence>\n",
                "        <bpel:assign name=\"prepare{n}\" validate=\"no\">\n",
                "          <bpel:copy><bpel:from>$request.amount * {}</bpel:from><bpel:to>$risk.level</bpel:to></bpel:copy>\n",
                "          <bpel:copy><bpel:from><bpel:literal><tns:note>{}</tns:note></bpel:literal></bpel:from><bpel:to variable=\"approval\" part=\"note\"/></bpel:copy>\n",
                "        </bpel:assign>\n",
                "        <bpel:if name=\"check{n}\">\n",
                "          <bpel:condition>$request.amount &lt;= {limit} and $risk.level = 'low'</bpel:condition>\n",
                "          <bpel:invoke name=\"assess{n}\" partnerLink=\"assessor\" portType=\"lns:riskAssessmentPT\" operation=\"check\" inputVariable=\"request\" outputVariable=\"risk\"/>\n",
                "          <bpel:else>\n",
                "            <bpel:flow>\n",
                "              <bpel:links><bpel:link name=\"l{n}\"/></bpel:links>\n",
                "              <bpel:invoke name=\"approve{n}\" partnerLink=\"approver\" portType=\"lns:loanApprovalPT\" operation=\"approve\" inputVariable=\"request\" outputVariable=\"approval\">\n",
                "                <bpel:sources><bpel:source linkName=\"l{n}\"><bpel:transitionCondition>$approval.accept = 'yes'</bpel:transitionCondition></bpel:source></bpel:sources>\n",
                "              </bpel:invoke>\n",
                "              <bpel:wait name=\"pause{n}\"><bpel:targets><bpel:target linkName=\"l{n}\"/></bpel:targets><bpel:for>'PT{}S'</bpel:for></bpel:wait>\n",
                "            </bpel:flow>\n",
                "          </bpel:else>\n",
                "        </bpel:if>\n",
                "        <bpel:while><bpel:condition>$risk.retries &lt; {}</bpel:condition><bpel:empty name=\"retry{n}\"/></bpel:while>\n",
                "      </bpel:sequence>\n",
                "    </bpel:scope>\n",
            ),
            1 + rng.below(9),
            escape(&sentence(&mut rng, 6)),
            1 + rng.below(60),
            1 + rng.below(5),
            n = n,
            limit = limit,
        );
        n += 1;
    });
    out.push_str(concat!(
        "    <bpel:reply name=\"reply\" partnerLink=\"customer\" portType=\"lns:loanServicePT\" operation=\"request\" variable=\"approval\"/>\n",
        "  </bpel:sequence>\n",
        "</bpel:process>\n",
    ));
    out.into_bytes()
}
