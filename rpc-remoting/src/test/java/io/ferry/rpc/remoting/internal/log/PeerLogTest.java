package io.ferry.rpc.remoting.internal.log;

import io.ferry.rpc.testkit.StandardErrorLines;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lines a peer causes, through slf4j-simple (the tests' binding) on a fake ticker. */
class PeerLogTest {
    private final AtomicLong now = new AtomicLong();
    private final PeerLog log = new PeerLog(LoggerFactory.getLogger("peer-log-test"), 3, now::get);

    @Test
    void atMostNLinesASecondThenTheNextTellsHowManyWereLeftOut() {
        try (StandardErrorLines lines = new StandardErrorLines()) {
            for (int i = 0; i < 8; i++) {
                log.warn("refused request {}", i);
            }
            now.addAndGet(TimeUnit.SECONDS.toNanos(1));
            log.warn("refused request {}", 8);
            List<String> logged = lines.containing("peer-log-test");
            assertEquals(4, logged.size(), String.join("\n", logged));
            assertTrue(logged.get(3).endsWith("refused request 8 (5 more like this not logged)"), logged.get(3));
        }
    }

    @Test
    void stringArgumentsAreEscapedAndAThrowableStaysTheLinesException() {
        try (StandardErrorLines lines = new StandardErrorLines()) {
            for (int i = 0; i < 4; i++) {
                log.warn("from {}", "x\ny\u001b[31m");
            }
            now.addAndGet(TimeUnit.SECONDS.toNanos(1));
            log.error("failed {}", "z", new IllegalStateException("boom"));
            assertEquals(3, lines.containing("from x\\ny\\u001b[31m").size(), "three a second");
            assertEquals(List.of(), lines.containing("\u001b"));
            assertEquals(1, lines.containing("failed z (1 more like this not logged)").size(),
                    lines.containing("").toString());
            assertEquals(1, lines.containing("java.lang.IllegalStateException: boom").size(),
                    "the throwable is printed as the line's exception, after the count");
        }
    }

    @Test
    void aLevelThatIsOffCountsNothing() {
        try (StandardErrorLines lines = new StandardErrorLines()) {
            for (int i = 0; i < 10; i++) {
                log.debug("reset {}", i); // the tests' binding logs INFO and up
            }
            log.info("still {}", "here");
            assertEquals(1, lines.containing("peer-log-test").size());
            assertTrue(lines.containing("peer-log-test").get(0).endsWith("still here"));
        }
    }

    @Test
    void aResetOrBrokenPipeOnlySaysThePeerWentAway() {
        assertTrue(ConnectionErrors.isPeerGone(new SocketException("Connection reset")));
        assertTrue(ConnectionErrors.isPeerGone(new IOException("recvAddress(..) failed: Connection reset by peer")));
        assertTrue(ConnectionErrors.isPeerGone(new IOException("writevAddresses(..) failed: Broken pipe")));
        assertTrue(ConnectionErrors.isPeerGone(new ClosedChannelException()));
        assertFalse(ConnectionErrors.isPeerGone(new IOException("Too many open files")));
        assertFalse(ConnectionErrors.isPeerGone(new IllegalStateException("Connection reset")));
        assertFalse(ConnectionErrors.isPeerGone(new IOException((String) null)));
    }
}
