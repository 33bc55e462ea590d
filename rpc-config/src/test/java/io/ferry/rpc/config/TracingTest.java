package io.ferry.rpc.config;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.TracingFixture;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.MDC;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spans of Ferry's calls through a real tracer (OpenTelemetry's SDK behind Micrometer's bridge, W3C trace context):
 * one trace from the caller through each provider and the calls a provider makes in turn, the span in scope where
 * the implementation runs and where the caller's callback runs, failures marked, and a forged trace context from
 * the wire unable to break a call.
 */
class TracingTest {
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();
    @RegisterExtension
    final TracingFixture tracing = new TracingFixture();

    /** What a provider sees of the trace it runs in. */
    public interface Hops {
        /** "traceId/spanId/traceparent" as seen on the provider's business thread. */
        String here();

        /** {@link #here()} of the next provider, called from this one. */
        String onward();

        /** Answers once the test releases it. */
        CompletableFuture<String> held();

        String fail();

        /** "traceId/spanId" in the logging MDC, then "traceId/spanId" of the current span, on the business thread. */
        String logged();
    }

    final class HopsImpl implements Hops {
        volatile Hops next;
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String here() {
            Span span = tracing.tracer().currentSpan();
            return (span == null ? "-/-" : span.context().traceId() + "/" + span.context().spanId()) + "/"
                    + RpcContext.current().requestAttachments().get("traceparent");
        }

        @Override
        public String onward() {
            return next.here();
        }

        @Override
        public CompletableFuture<String> held() {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return "released";
            });
        }

        @Override
        public String fail() {
            throw new IllegalStateException("on purpose");
        }

        @Override
        public String logged() {
            Span span = tracing.tracer().currentSpan();
            return MDC.get("traceId") + "/" + MDC.get("spanId") + "/"
                    + (span == null ? "-/-" : span.context().traceId() + "/" + span.context().spanId());
        }
    }

    private Ferry observed() {
        return ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .observability(Observability.observations(tracing.registry())).build());
    }

    private Hops reference(Ferry consumer, int port) {
        return consumer.reference(ReferenceConfig.builder(Hops.class).url("dubbo://127.0.0.1:" + port).build());
    }

    private SpanData span(SpanKind kind, String method) {
        String name = Hops.class.getName() + "/" + method;
        List<SpanData> found = tracing.spans().stream()
                .filter(s -> s.getKind() == kind && s.getName().equals(name)).toList();
        assertEquals(1, found.size(), () -> kind + " " + name + " in " + tracing.spans());
        return found.get(0);
    }

    @Test
    void oneTraceRunsFromTheCallerThroughTheProvider() {
        HopsImpl impl = new HopsImpl();
        Ferry ferry = observed();
        Hops hops = reference(ferry, ferry.export(ServiceConfig.builder(Hops.class, impl).build()));

        String[] seen = hops.here().split("/");

        assertEquals(null, tracing.tracer().currentSpan(), "a blocking caller goes on in its own scope");
        await().until(() -> tracing.spans().size() == 2);
        SpanData client = span(SpanKind.CLIENT, "here");
        SpanData server = span(SpanKind.SERVER, "here");
        assertEquals(client.getTraceId(), server.getTraceId());
        assertEquals(client.getSpanId(), server.getParentSpanId());
        assertEquals(server.getTraceId(), seen[0], "the implementation runs in the server span");
        assertEquals(server.getSpanId(), seen[1]);
        assertEquals("00-" + client.getTraceId() + "-" + client.getSpanId() + "-01", seen[2],
                "the trace context travels as Dubbo's tracing sends it: one W3C traceparent attachment");
        for (SpanData span : List.of(client, server)) {
            assertEquals(RpcObservations.SYSTEM_DUBBO, span.getAttributes().get(AttributeKey.stringKey("rpc.system")));
            assertEquals(Hops.class.getName(), span.getAttributes().get(AttributeKey.stringKey("rpc.service")));
            assertEquals("here", span.getAttributes().get(AttributeKey.stringKey("rpc.method")));
            assertEquals("OK", span.getAttributes().get(AttributeKey.stringKey("rpc.status")));
        }
    }

    @Test
    void aCallMadeInsideTheCallersSpanIsItsChild() {
        Ferry ferry = observed();
        Hops hops = reference(ferry, ferry.export(ServiceConfig.builder(Hops.class, new HopsImpl()).build()));
        Tracer tracer = tracing.tracer();
        Span parent = tracer.nextSpan().name("caller's work").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(parent)) {
            hops.here();
        } finally {
            parent.end();
        }
        await().until(() -> tracing.spans().size() == 3);
        SpanData client = span(SpanKind.CLIENT, "here");
        assertEquals(parent.context().traceId(), client.getTraceId());
        assertEquals(parent.context().spanId(), client.getParentSpanId());
    }

    @Test
    void aProvidersOwnCallsContinueTheTrace() {
        HopsImpl first = new HopsImpl();
        HopsImpl second = new HopsImpl();
        Ferry front = observed();
        Ferry back = observed();
        int backPort = back.export(ServiceConfig.builder(Hops.class, second).build());
        first.next = reference(front, backPort);
        Ferry caller = observed();
        Hops hops = reference(caller, front.export(ServiceConfig.builder(Hops.class, first).build()));

        String[] seen = hops.onward().split("/");

        await().until(() -> tracing.spans().size() == 4);
        SpanData outerClient = span(SpanKind.CLIENT, "onward");
        SpanData outerServer = span(SpanKind.SERVER, "onward");
        SpanData innerClient = span(SpanKind.CLIENT, "here");
        SpanData innerServer = span(SpanKind.SERVER, "here");
        for (SpanData span : List.of(outerServer, innerClient, innerServer)) {
            assertEquals(outerClient.getTraceId(), span.getTraceId(), span.toString());
        }
        assertEquals(outerClient.getSpanId(), outerServer.getParentSpanId());
        assertEquals(outerServer.getSpanId(), innerClient.getParentSpanId(), "the nested call is the server's child");
        assertEquals(innerClient.getSpanId(), innerServer.getParentSpanId());
        assertEquals(innerServer.getSpanId(), seen[1]);
    }

    @Test
    void theCallersCallbackRunsInTheCallsSpan() throws Exception {
        HopsImpl impl = new HopsImpl();
        Ferry ferry = observed();
        Hops hops = reference(ferry, ferry.export(ServiceConfig.builder(Hops.class, impl).build()));

        CompletableFuture<String> inCallback = hops.held().thenApply(answer -> {
            Span current = tracing.tracer().currentSpan();
            return current == null ? "none" : current.context().spanId();
        });
        impl.release.countDown();

        String spanInCallback = inCallback.get(10, TimeUnit.SECONDS);
        await().until(() -> tracing.spans().size() == 2);
        assertEquals(span(SpanKind.CLIENT, "held").getSpanId(), spanInCallback);
        assertEquals(null, tracing.tracer().currentSpan(), "the scope is closed again on the caller's thread");
    }

    /** With the bridge's MDC integration on (MdcContextStorage, as Spring Boot wires it), log lines carry the call. */
    @Test
    void theTraceIsInTheLoggingContextOfTheImplementationAndOfTheCallersCallback() throws Exception {
        HopsImpl impl = new HopsImpl();
        Ferry ferry = observed();
        Hops hops = reference(ferry, ferry.export(ServiceConfig.builder(Hops.class, impl).build()));

        String[] provider = hops.logged().split("/");
        CompletableFuture<String> inCallback = hops.held()
                .thenApply(answer -> MDC.get("traceId") + "/" + MDC.get("spanId"));
        impl.release.countDown();
        String[] callback = inCallback.get(10, TimeUnit.SECONDS).split("/");

        await().until(() -> tracing.spans().size() == 4);
        SpanData server = span(SpanKind.SERVER, "logged");
        assertEquals(server.getTraceId() + "/" + server.getSpanId(), provider[0] + "/" + provider[1],
                "the provider's MDC while the implementation runs");
        assertEquals(provider[2] + "/" + provider[3], provider[0] + "/" + provider[1]);
        SpanData client = span(SpanKind.CLIENT, "held");
        assertEquals(client.getTraceId() + "/" + client.getSpanId(), callback[0] + "/" + callback[1],
                "the consumer's MDC in the caller's callback");
    }

    @Test
    void aFailedCallMarksBothSpans() {
        Ferry ferry = observed();
        Hops hops = reference(ferry, ferry.export(ServiceConfig.builder(Hops.class, new HopsImpl()).build()));

        assertThrows(IllegalStateException.class, hops::fail);

        await().until(() -> tracing.spans().size() == 2);
        for (SpanData span : List.of(span(SpanKind.CLIENT, "fail"), span(SpanKind.SERVER, "fail"))) {
            assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode(), span.toString());
            assertEquals(RpcObservations.EXCEPTION, span.getAttributes().get(AttributeKey.stringKey("rpc.status")));
            assertTrue(span.getEvents().stream().anyMatch(e -> e.getName().equals("exception")), span.toString());
        }
    }

    @Test
    void aForgedTraceContextFromTheWireStartsAFreshTrace() {
        Ferry provider = observed();
        int port = provider.export(ServiceConfig.builder(Hops.class, new HopsImpl()).build());
        Ferry plain = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none()).build());
        Hops hops = reference(plain, port);

        for (String forged : List.of("00-zz-yy-01", "00-" + "0".repeat(32) + "-" + "0".repeat(16) + "-01",
                "\n\u001b[31m", "x".repeat(4096))) {
            RpcContext.current().setAttachment("traceparent", forged);
            String[] seen = hops.here().split("/");
            assertEquals(32, seen[0].length(), forged);
            assertNotEquals("0".repeat(32), seen[0]);
        }
        await().until(() -> tracing.spans().size() == 4);
        tracing.spans().forEach(span -> assertEquals(SpanKind.SERVER, span.getKind()));
        tracing.spans().forEach(span -> assertTrue(!span.getParentSpanContext().isValid(), span.toString()));
    }
}
