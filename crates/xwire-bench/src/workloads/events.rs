//! Event streams: plain event structs, and WS-Notification / WS-Eventing messages.

use std::fmt::Write;

use super::text::{escape, records_until, sentence, timestamp, uuid};
use super::Rng;

const SOAP12: &str = "http://www.w3.org/2003/05/soap-envelope";
const WSA: &str = "http://www.w3.org/2005/08/addressing";

/// A stream of events, each a struct of sequence number, timestamp, severity and message;
/// about `size` bytes.
pub fn stream(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 1024);
    out.push_str("<?xml version=\"1.0\"?>\n<ev:events xmlns:ev=\"urn:xwire:bench:events\" source=\"sensor-grid\">\n");
    let mut seq = 1_000_000u64;
    records_until(&mut out, size, 0, |out| {
        seq += 1 + rng.below(3);
        let n = 3 + rng.below(10) as usize;
        let _ = writeln!(
            out,
            "<ev:event><ev:seq>{seq}</ev:seq><ev:time>{}</ev:time><ev:severity>{}</ev:severity><ev:message>{}</ev:message></ev:event>",
            timestamp(&mut rng),
            rng.pick(&["debug", "info", "warning", "error"]),
            escape(&sentence(&mut rng, n))
        );
    });
    out.push_str("</ev:events>\n");
    out.into_bytes()
}

/// One event's payload, in its application namespace.
fn payload(out: &mut String, rng: &mut Rng, seq: u64) {
    let _ = write!(
        out,
        "<app:reading xmlns:app=\"urn:example:sensors\"><app:seq>{seq}</app:seq><app:time>{}</app:time><app:sensor id=\"s{}\" unit=\"K\">{:.2}</app:sensor><app:note>{}</app:note></app:reading>",
        timestamp(rng),
        rng.below(500),
        200.0 + rng.unit() * 100.0,
        escape(&sentence(rng, 4))
    );
}

/// A WS-BaseNotification `Notify` message (SOAP 1.2 with WS-Addressing headers) carrying
/// `NotificationMessage`s, each with its subscription and producer references, topic and
/// payload; about `size` bytes.
pub fn ws_notification(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 2048);
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<s:Envelope xmlns:s=\"{SOAP12}\" xmlns:wsa=\"{WSA}\" xmlns:wsnt=\"http://docs.oasis-open.org/wsn/b-2\" xmlns:wstop=\"http://docs.oasis-open.org/wsn/t-1\" xmlns:tns=\"urn:example:topics\">\n<s:Header>\n<wsa:Action s:mustUnderstand=\"true\">http://docs.oasis-open.org/wsn/bw-2/NotificationConsumer/Notify</wsa:Action>\n<wsa:MessageID>urn:uuid:{}</wsa:MessageID>\n<wsa:To>http://consumer.example.org/notify</wsa:To>\n</s:Header>\n<s:Body>\n<wsnt:Notify>\n",
        uuid(&mut rng)
    );
    let mut seq = 0;
    records_until(&mut out, size, 60, |out| {
        seq += 1;
        let _ = write!(
            out,
            "<wsnt:NotificationMessage>\n<wsnt:SubscriptionReference><wsa:Address>http://broker.example.org/subscriptions/{}</wsa:Address></wsnt:SubscriptionReference>\n<wsnt:Topic Dialect=\"http://docs.oasis-open.org/wsn/t-1/TopicExpression/Concrete\">tns:sensors/{}</wsnt:Topic>\n<wsnt:ProducerReference><wsa:Address>http://producer.example.org/sensor{}</wsa:Address><wsa:ReferenceParameters><tns:producerKey>{}</tns:producerKey></wsa:ReferenceParameters></wsnt:ProducerReference>\n<wsnt:Message>",
            uuid(&mut rng),
            rng.pick(&["temperature", "pressure", "humidity"]),
            rng.below(50),
            rng.below(1 << 20)
        );
        payload(out, &mut rng, seq);
        out.push_str("</wsnt:Message>\n</wsnt:NotificationMessage>\n");
    });
    out.push_str("</wsnt:Notify>\n</s:Body>\n</s:Envelope>\n");
    out.into_bytes()
}

/// A WS-Eventing event delivery: a SOAP 1.2 envelope with WS-Addressing headers and the
/// subscription's `wse:Identifier` as a reference parameter, and a body batching event
/// payloads; about `size` bytes.
pub fn ws_eventing(size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(size + 2048);
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<s:Envelope xmlns:s=\"{SOAP12}\" xmlns:wsa=\"{WSA}\" xmlns:wse=\"http://schemas.xmlsoap.org/ws/2004/08/eventing\">\n<s:Header>\n<wsa:Action>urn:example:sensors/ReadingBatch</wsa:Action>\n<wsa:MessageID>urn:uuid:{}</wsa:MessageID>\n<wsa:To>http://sink.example.org/events</wsa:To>\n<wse:Identifier wsa:IsReferenceParameter=\"true\">urn:uuid:{}</wse:Identifier>\n</s:Header>\n<s:Body>\n<app:readings xmlns:app=\"urn:example:sensors\">\n",
        uuid(&mut rng),
        uuid(&mut rng)
    );
    let mut seq = 0;
    records_until(&mut out, size, 60, |out| {
        seq += 1;
        payload(out, &mut rng, seq);
        out.push('\n');
    });
    out.push_str("</app:readings>\n</s:Body>\n</s:Envelope>\n");
    out.into_bytes()
}
