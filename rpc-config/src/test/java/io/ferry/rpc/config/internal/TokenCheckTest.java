package io.ferry.rpc.config.internal;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.spi.ContextPlumbing;
import io.ferry.rpc.testkit.StandardErrorLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider's token: how a setting becomes one, and the check a call must pass before anything runs. */
class TokenCheckTest {
    private static final InetSocketAddress CALLER = new InetSocketAddress("192.0.2.7", 41000);
    private final AtomicLong nanos = new AtomicLong();
    private final AtomicInteger ran = new AtomicInteger();
    private final Invoker service = invocation -> {
        ran.incrementAndGet();
        return CompletableFuture.completedFuture(Result.of("ran"));
    };

    @AfterEach
    void leaveTheCall() {
        ContextPlumbing.exitProviderCall(RpcContext.current());
    }

    private static Invocation call(Object token) throws Exception {
        Map<String, Object> attachments = new HashMap<>();
        if (token != null) {
            attachments.put("token", token);
        }
        return new Invocation(UserService.class.getName(), "", "", UserService.class.getMethod("hello", String.class),
                new Object[] {"x"}, attachments, Deadline.none(), false, Runnable::run);
    }

    /** The check as the provider runs it: inside a call from {@link #CALLER}. */
    private CompletableFuture<Result> check(TokenCheck check, Object token) throws Exception {
        Invocation invocation = call(token);
        ContextPlumbing.enterProviderCall(RpcContext.current(), invocation.attachments(), Deadline.none(), CALLER, null);
        return check.invoke(invocation, service);
    }

    private TokenCheck check(String setting) {
        return new TokenCheck(ProviderToken.forExport(setting), UserService.class.getName(), "10.0.0.1",
                nanos::get);
    }

    @Test
    void trueMakesARandomTokenPerExportFalseNoneAndAnythingElseIsTheToken() {
        String first = ProviderToken.forExport("true").value();
        assertEquals(36, first.length(), "a UUID, as Dubbo makes it: " + first);
        assertNotEquals(first, ProviderToken.forExport("true").value(), "one per export");
        assertEquals(36, ProviderToken.forExport("default").value().length(), "Dubbo's other word for it");
        for (String none : List.of("false", "FALSE", "0", "null", "N/A", "")) {
            assertNull(ProviderToken.forExport(none), none);
        }
        assertNull(ProviderToken.forExport(null));
        assertEquals("s3cr3t", ProviderToken.forExport("s3cr3t").value());
        assertEquals("ProviderToken(******)", ProviderToken.forExport("s3cr3t").toString());
    }

    @Test
    void onlyTheSameStringMatches() {
        ProviderToken token = ProviderToken.forExport("s3cr3t");
        assertTrue(token.matches("s3cr3t"));
        for (Object other : new Object[] {null, "", "s3cr3", "s3cr3t ", "S3CR3T", "s3cr3tx"}) {
            assertFalse(token.matches(other), String.valueOf(other));
        }
        assertFalse(token.matches(new StringBuilder("s3cr3t")), "Dubbo sends a String; nothing else is a token");
    }

    @Test
    void theRightTokenGoesOnToTheServiceWhichNoLongerSeesIt() throws Exception {
        List<Object> seen = new ArrayList<>();
        Invoker looking = invocation -> {
            seen.add(invocation.attachments().get("token"));
            seen.add(RpcContext.current().requestAttachments().get("token"));
            return service.invoke(invocation);
        };
        Invocation invocation = call("s3cr3t");
        ContextPlumbing.enterProviderCall(RpcContext.current(), invocation.attachments(), Deadline.none(), CALLER, null);
        assertEquals("ran", check("s3cr3t").invoke(invocation, looking).get().value());
        assertEquals(1, ran.get());
        assertEquals(Arrays.asList(null, null), seen, "a filter that logs attachments cannot leak it");
    }

    @Test
    void aWrongOrMissingTokenIsRefusedUnrunInDubbosWordsWithoutAnyToken() throws Exception {
        try (StandardErrorLines log = new StandardErrorLines()) {
            TokenCheck check = check("s3cr3t");
            ProviderRefusal wrong = refusal(check(check, "guess"));
            ProviderRefusal missing = refusal(check(check, null));
            assertEquals(0, ran.get(), "nothing of the service ran");
            for (ProviderRefusal refusal : List.of(wrong, missing)) {
                assertEquals(RpcStatus.FORBIDDEN, refusal.status());
                assertEquals(70, refusal.status().wireCode(), "SERVICE_ERROR, as Dubbo's token check answers");
                assertTrue(refusal.isNotExecuted());
                assertTrue(refusal.getMessage().startsWith("Invalid token! Forbid invoke remote service interface "
                        + UserService.class.getName() + " method hello() from consumer 192.0.2.7 to provider "
                        + "10.0.0.1, "), refusal.getMessage());
                assertFalse(refusal.getMessage().contains("s3cr3t") || refusal.getMessage().contains("guess"),
                        refusal.getMessage());
            }
            assertTrue(wrong.getMessage().endsWith("the consumer sent another token (not shown)"));
            assertTrue(missing.getMessage().endsWith("the consumer sent no token"));
            List<String> lines = log.containing("refused UserService.hello from /192.0.2.7:41000");
            assertEquals(2, lines.size(), log.containing("").toString());
            assertTrue(lines.stream().noneMatch(l -> l.contains("s3cr3t") || l.contains("guess")), lines.toString());
        }
    }

    @Test
    void refusalsAreLoggedAtMostTenASecondAndTheRestCounted() throws Exception {
        try (StandardErrorLines log = new StandardErrorLines()) {
            TokenCheck check = check("s3cr3t");
            for (int i = 0; i < 25; i++) {
                refusal(check(check, "guess"));
            }
            assertEquals(10, log.containing("refused UserService.hello").size());
            nanos.addAndGet(1_000_000_000L);
            refusal(check(check, "guess"));
            assertEquals(1, log.containing("(15 more refusals not logged)").size());
        }
    }

    private static ProviderRefusal refusal(CompletableFuture<Result> result) {
        ExecutionException e = assertThrows(ExecutionException.class, result::get);
        return assertInstanceOf(ProviderRefusal.class, e.getCause());
    }
}
