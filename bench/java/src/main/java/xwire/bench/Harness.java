package xwire.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java harness of `xwire bench`: reads one JSON request on standard input, writes one JSON
 * line per result on standard output (protocol: crates/xwire-bench/src/peers/external.rs).
 */
public final class Harness {
    private Harness() {}

    static final ObjectMapper JSON = new ObjectMapper();
    static PrintStream out;

    public static void main(String[] args) throws Exception {
        out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        // Libraries that print warnings must not break the protocol on standard output.
        System.setOut(System.err);
        if (args.length > 0 && args[0].equals("--probe")) {
            probe();
        } else {
            JsonNode req = JSON.readTree(System.in);
            String kind = req.path("kind").asText();
            String peer = req.path("peer").asText();
            switch (kind) {
                case "measure" -> {
                    for (JsonNode t : req.path("tasks")) {
                        emit(measure(peer, t));
                    }
                }
                case "throughput" -> emit(throughput(peer, req.path("run")));
                default -> {
                    System.err.println("unknown request kind '" + kind + "'");
                    System.exit(2);
                }
            }
        }
        out.flush();
        System.exit(0);
    }

    static void emit(Map<String, Object> m) throws Exception {
        out.println(JSON.writeValueAsString(m));
        out.flush();
    }

    static void probe() throws Exception {
        for (Peers.Peer p : Peers.ALL) {
            if (!p.available()) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("peer", p.name());
            m.put("ops", p.ops());
            m.put("checks", p.checks());
            m.put("version", p.version());
            emit(m);
        }
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m.trim());
    }

    static Runner prepare(String peer, String op, String schema) throws Exception {
        Peers.Peer p = Peers.find(peer);
        if (p == null) {
            throw new IllegalArgumentException("unknown peer '" + peer + "'");
        }
        if (!p.ops().contains(op)) {
            throw new IllegalArgumentException(peer + " cannot do " + op);
        }
        return p.factory().prepare(op, schema);
    }

    static Map<String, Object> measure(String peer, JsonNode t) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", t.path("id").asLong());
        r.put("median_s", null);
        r.put("min_s", null);
        r.put("runs", 0);
        r.put("checksum", null);
        r.put("peak_bytes", null);
        r.put("encoded_bytes", null);
        r.put("error", null);
        try {
            String schema = t.path("schema").isTextual() ? t.path("schema").asText() : null;
            Runner run = prepare(peer, t.path("op").asText(), schema);
            byte[] doc = Files.readAllBytes(Path.of(t.path("file").asText()));
            int copies = Math.max(1, t.path("copies").asInt(1));
            Object[] inputs = new Object[copies];
            for (int i = 0; i < copies; i++) {
                inputs[i] = run.input(i == 0 ? doc : doc.clone());
            }
            double warmup = t.path("warmup_s").asDouble(0);
            int minRuns = Math.max(1, t.path("min_runs").asInt(1));
            int maxRuns = Math.max(minRuns, t.path("max_runs").asInt(minRuns));
            double budget = t.path("budget_s").asDouble(0);

            int k = 0;
            long checksum = run.run(inputs[k++ % copies]);
            long w0 = System.nanoTime();
            while ((System.nanoTime() - w0) / 1e9 < warmup) {
                long c = run.run(inputs[k++ % copies]);
                if (c != checksum) {
                    throw new IllegalStateException("checksum changed between runs: " + checksum + ", " + c);
                }
            }
            double[] times = new double[Math.min(maxRuns, 1 << 16)];
            int n = 0;
            long start = System.nanoTime();
            while (n < maxRuns && (n < minRuns || (System.nanoTime() - start) / 1e9 < budget)) {
                long t0 = System.nanoTime();
                run.run(inputs[k++ % copies]);
                long t1 = System.nanoTime();
                if (n == times.length) {
                    times = Arrays.copyOf(times, times.length * 2);
                }
                times[n++] = (t1 - t0) / 1e9;
            }
            run.keep = null;
            double[] sorted = Arrays.copyOf(times, n);
            Arrays.sort(sorted);
            double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
            r.put("median_s", median);
            r.put("min_s", sorted[0]);
            r.put("runs", n);
            r.put("checksum", checksum);
            r.put("peak_bytes", peak(run, inputs[0]));
            if (run.encodedBytes >= 0) {
                r.put("encoded_bytes", run.encodedBytes);
            }
            // Tests: the output of a run (reserialize, pipelines), to check it is well-formed.
            if (t.path("output").isTextual()) {
                run.run(inputs[0]);
                byte[] o = run.output();
                if (o != null) {
                    Files.write(Path.of(t.path("output").asText()), o);
                }
            }
        } catch (Throwable e) {
            r.put("error", message(e));
        }
        return r;
    }

    /**
     * Best-effort memory of one run. A run that keeps what it built (a tree): the heap in use
     * after a full collection with the tree still reachable, minus the heap in use before the
     * run. A streaming run keeps nothing, so it reports the bytes the run allocated (the JVM's
     * per-thread allocation counter): an upper bound of its peak, garbage included.
     */
    static Long peak(Runner run, Object input) {
        try {
            Runtime rt = Runtime.getRuntime();
            System.gc();
            System.gc();
            long base = rt.totalMemory() - rt.freeMemory();
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long id = Thread.currentThread().getId();
            long a0 = threads.getThreadAllocatedBytes(id);
            run.run(input);
            long allocated = threads.getThreadAllocatedBytes(id) - a0;
            if (run.keep == null) {
                return allocated >= 0 ? allocated : null;
            }
            System.gc();
            System.gc();
            long kept = rt.totalMemory() - rt.freeMemory() - base;
            run.keep = null;
            return Math.max(0, kept);
        } catch (Throwable e) {
            return null;
        }
    }

    static Map<String, Object> throughput(String peer, JsonNode req) throws Exception {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tps", 0.0);
        r.put("mean_s", 0.0);
        r.put("per_file_s", List.of());
        r.put("error", null);
        try {
            List<byte[]> files = new ArrayList<>();
            for (JsonNode f : req.path("files")) {
                files.add(Files.readAllBytes(Path.of(f.asText())));
            }
            int nf = files.size();
            if (nf == 0) {
                throw new IllegalArgumentException("no files");
            }
            String op = req.path("op").asText();
            int threads = Math.max(1, req.path("threads").asInt(1));
            double steady = req.path("steady_s").asDouble();
            long t = System.nanoTime();
            long steadyFrom = t + (long) (req.path("ramp_up_s").asDouble() * 1e9);
            long steadyTo = steadyFrom + (long) (steady * 1e9);
            long end = steadyTo + (long) (req.path("ramp_down_s").asDouble() * 1e9);
            long[][] counts = new long[threads][nf];
            double[][] secs = new double[threads][nf];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] workers = new Thread[threads];
            for (int w = 0; w < threads; w++) {
                final int worker = w;
                workers[w] = new Thread(() -> {
                    try {
                        Runner run = prepare(peer, op, null);
                        Object[] inputs = new Object[nf];
                        for (int i = 0; i < nf; i++) {
                            inputs[i] = run.input(files.get(i));
                        }
                        for (int k = worker; ; k++) {
                            int i = k % nf;
                            long t0 = System.nanoTime();
                            if (t0 - end >= 0 || failure.get() != null) {
                                return;
                            }
                            run.run(inputs[i]);
                            long t1 = System.nanoTime();
                            if (t0 - steadyFrom >= 0 && steadyTo - t1 >= 0) {
                                counts[worker][i]++;
                                secs[worker][i] += (t1 - t0) / 1e9;
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                workers[w].start();
            }
            for (Thread w : workers) {
                w.join();
            }
            if (failure.get() != null) {
                throw failure.get();
            }
            long count = 0;
            double total = 0;
            List<Double> perFile = new ArrayList<>();
            for (int i = 0; i < nf; i++) {
                long c = 0;
                double s = 0;
                for (int w = 0; w < threads; w++) {
                    c += counts[w][i];
                    s += secs[w][i];
                }
                count += c;
                total += s;
                // JSON has no NaN: a file never completed in the steady state reports 0.
                perFile.add(c > 0 ? s / c : 0.0);
            }
            if (count == 0) {
                throw new IllegalStateException("no document completed within the steady state");
            }
            r.put("tps", count / steady);
            r.put("mean_s", total / count);
            r.put("per_file_s", perFile);
        } catch (Throwable e) {
            r.put("error", message(e));
        }
        return r;
    }
}
