package io.ferry.rpc.benchmark.suite.jmh;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.remoting.HessianBodies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Writing a body of {@code java.time} values, hessian-lite beside Ferry's codec (whose plans write the bytes of
 * hessian-lite's handles without making them): one list of the seven common types, as an answer carrying a record's
 * dates would. Same bytes from both; {@code -prof gc} shows the handles hessian-lite allocates.
 *
 * <pre>
 *   java -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" org.openjdk.jmh.Main \
 *       JavaTimeWriteBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc
 * </pre>
 * 2026-11-27, that command on the project's 2-core machine: hessian-lite 1,821 ns and 424 B a body; Ferry 723 ns and
 * 0 B (0.40x). Ferry before its java.time plans, the handles written through its own output: 1,296 ns and 424 B.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JavaTimeWriteBenchmark {
    private static final ZonedDateTime ZONED =
            ZonedDateTime.of(2026, 11, 27, 8, 30, 15, 123_456_789, ZoneId.of("Europe/Paris"));
    /** An ArrayList, as a service's answer would hold them (List.of has serializers of its own). */
    private static final List<Object> VALUES = new ArrayList<>(List.of(ZONED.toLocalDate(),
            ZONED.toLocalDateTime(), ZONED.toLocalTime(), ZONED.toInstant(), Duration.ofMillis(-1500), ZONED,
            ZONED.toOffsetDateTime().withOffsetSameInstant(ZoneOffset.ofHours(-5))));

    @Param({"hessian-lite", "ferry"})
    public String codec;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    private Hessian2Output out;

    @Setup
    public void setUp() {
        switch (codec) {
            case "hessian-lite" -> {
                out = new Hessian2Output(bytes);
                out.setSerializerFactory(new SerializerFactory());
            }
            case "ferry" -> out = HessianBodies.forServices(List.of()).output(bytes);
            default -> throw new IllegalArgumentException("codec: " + codec);
        }
    }

    /** Returns the body's size. */
    @Benchmark
    public int write() throws IOException {
        bytes.reset();
        out.init(bytes);
        out.writeObject(VALUES);
        out.flush();
        return bytes.size();
    }
}
