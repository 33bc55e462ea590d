package io.ferry.rpc.remoting.internal.transport;

import io.ferry.rpc.remoting.ServerOptions;
import io.ferry.rpc.remoting.TransportOptions;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The direct-memory limit as the JDK computes it: the flag when above 0, the heap's maximum otherwise. */
class DirectMemoryTest {
    private static final long HEAP = 1L << 30;

    @Test
    void sizesReadAsHotSpotReadsThem() {
        assertEquals(OptionalLong.of(512), DirectMemory.parseSize("512"));
        assertEquals(OptionalLong.of(64L << 10), DirectMemory.parseSize("64k"));
        assertEquals(OptionalLong.of(256L << 20), DirectMemory.parseSize("256M"));
        assertEquals(OptionalLong.of(2L << 30), DirectMemory.parseSize("2g"));
        assertEquals(OptionalLong.of(1L << 40), DirectMemory.parseSize("1T"));
        for (String bad : List.of("", "g", "1.5g", "-1", "12x", "1 g", "99999999999999999999", "9999999999t")) {
            assertEquals(OptionalLong.empty(), DirectMemory.parseSize(bad), bad);
        }
    }

    @Test
    void theLastFlagOnTheCommandLineWins() {
        assertEquals(OptionalLong.of(2L << 30), DirectMemory.fromArguments(List.of("-Xmx1g",
                "-XX:MaxDirectMemorySize=512m", "-Dx=y", "-XX:MaxDirectMemorySize=2g")));
        assertEquals(OptionalLong.of(512L << 20), DirectMemory.fromArguments(List.of(
                "-XX:MaxDirectMemorySize=512m", "-XX:MaxDirectMemorySize=oops")), "an unreadable one is skipped");
        assertEquals(OptionalLong.empty(), DirectMemory.fromArguments(List.of("-Xmx1g", "-XX:+UseG1GC",
                "-XX:MaxDirectMemorySizeX=1g")));
    }

    @Test
    void theDiagnosticBeanComesFirstThenTheArgumentsThenTheHeap() {
        List<String> args = List.of("-XX:MaxDirectMemorySize=256m");
        assertEquals(128L << 20, DirectMemory.limit(OptionalLong.of(128L << 20), args, HEAP));
        assertEquals(256L << 20, DirectMemory.limit(OptionalLong.empty(), args, HEAP), "no HotSpot bean");
        assertEquals(HEAP, DirectMemory.limit(OptionalLong.of(0), args, HEAP), "the flag's default, 0: the heap's");
        assertEquals(HEAP, DirectMemory.limit(OptionalLong.empty(), List.of("-Xmx1g"), HEAP));
        assertEquals(HEAP, DirectMemory.limit(OptionalLong.empty(), List.of("-XX:MaxDirectMemorySize=0"), HEAP));
    }

    @Test
    void thisJvmsLimitIsTheOneNettyEnforces() {
        assertEquals(PlatformDependent.maxDirectMemory(), DirectMemory.limit());
        assertEquals(Math.max(DirectMemory.limit() / 4, TransportOptions.PAYLOAD.defaultValue()),
                ServerOptions.defaultPartialFrameBudget());
    }
}
