package xwire.bench;

/** A prepared operation of one peer: runs on one document after another, from one thread. */
abstract class Runner {
    /** What the last run built (a tree), kept reachable until the memory sample is taken. */
    Object keep;

    /**
     * Size in bytes of the binary form a run made (encode) or read (decode), -1 for other
     * operations: reported as `encoded_bytes`.
     */
    long encodedBytes = -1;

    /** The input of a run, made from the document before timing (EXI bytes for decode). */
    Object input(byte[] doc) throws Exception {
        return doc;
    }

    /** One run: the checksum. */
    abstract long run(Object input) throws Exception;

    /** What the last run wrote (reserialize, pipelines), for tests; null for other operations. */
    byte[] output() {
        return null;
    }
}
