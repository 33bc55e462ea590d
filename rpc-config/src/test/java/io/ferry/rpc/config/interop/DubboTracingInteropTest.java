package io.ferry.rpc.config.interop;

import io.ferry.rpc.RpcContext;
import io.ferry.rpc.config.ApplicationConfig;
import io.ferry.rpc.config.Ferry;
import io.ferry.rpc.config.Observability;
import io.ferry.rpc.config.ProtocolConfig;
import io.ferry.rpc.config.ReferenceConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.fixtures.TracingFixture;
import io.ferry.rpc.config.fixtures.Traced;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.apache.dubbo.config.TracingConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.config.nested.PropagationConfig;
import org.apache.dubbo.config.nested.SamplingConfig;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One trace across stock Apache Dubbo 3.3.6 with its tracing on (OpenTelemetry, W3C) and Ferry with a tracer of its
 * own: a Dubbo consumer calls a Ferry provider, which calls a Dubbo provider. Ferry's server span is the child of
 * Dubbo's client span, its own call's client span the child of its server span, and Dubbo's server span on the
 * far side continues the same trace: the trace context crosses both ways as the one {@code traceparent} attachment
 * Dubbo sends.
 */
class DubboTracingInteropTest {
    private static final String TRACEPARENT = "00-[0-9a-f]{32}-[0-9a-f]{16}-01";

    @RegisterExtension
    final TracingFixture tracing = new TracingFixture();

    private FrameworkModel framework;
    private Ferry ferry;

    @AfterEach
    void stop() {
        if (ferry != null) {
            ferry.close();
        }
        if (framework != null) {
            framework.destroy();
        }
    }

    /** What a provider sees of the trace, through whichever tracer serves it. */
    private static String seen(Tracer tracer) {
        Span span = tracer == null ? null : tracer.currentSpan();
        return (span == null ? "-/-" : span.context().traceId() + "/" + span.context().spanId()) + "/"
                + RpcContext.current().requestAttachments().get("traceparent");
    }

    /** Ferry's hop: its view, then the Dubbo provider's. */
    private final class FerryHop implements Traced {
        volatile Traced next;

        @Override
        public String here() {
            return seen(tracing.tracer());
        }

        @Override
        public String onward() {
            return here() + "|" + next.here();
        }
    }

    /** Dubbo's hop: what Dubbo's own tracer has in scope, and the attachment as Dubbo received it. */
    private static final class DubboHop implements Traced {
        volatile Supplier<Tracer> tracer;

        @Override
        public String here() {
            Span span = tracer.get().currentSpan();
            return (span == null ? "-/-" : span.context().traceId() + "/" + span.context().spanId()) + "/"
                    + org.apache.dubbo.rpc.RpcContext.getServerAttachment().getAttachment("traceparent");
        }

        @Override
        public String onward() {
            return here();
        }
    }

    private static TracingConfig dubboTracing() {
        TracingConfig config = new TracingConfig();
        config.setEnabled(true);
        SamplingConfig sampling = new SamplingConfig();
        sampling.setProbability(1.0f);
        config.setSampling(sampling);
        PropagationConfig propagation = new PropagationConfig();
        propagation.setType(PropagationConfig.W3C);
        config.setPropagation(propagation);
        return config;
    }

    @Test
    void oneTraceRunsDubboToFerryToDubbo() {
        DubboLoopback.ignoreOtherInterfaces();
        FerryHop ferryHop = new FerryHop();
        ferry = Ferry.builder().application(ApplicationConfig.of("ferry-middle")).shutdownHook(false)
                .observability(Observability.observations(tracing.registry()))
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).build();
        int ferryPort = ferry.export(ServiceConfig.builder(Traced.class, ferryHop).build());

        DubboHop dubboHop = new DubboHop();
        org.apache.dubbo.config.ProtocolConfig protocol = new org.apache.dubbo.config.ProtocolConfig("dubbo", -1);
        protocol.setHost("127.0.0.1");
        org.apache.dubbo.config.ServiceConfig<Traced> service = new org.apache.dubbo.config.ServiceConfig<>();
        service.setInterface(Traced.class);
        service.setRef(dubboHop);
        org.apache.dubbo.config.ReferenceConfig<Traced> reference = DubboLoopback.reference(Traced.class);
        reference.setUrl("dubbo://127.0.0.1:" + ferryPort + "?serialization=hessian2");
        framework = new FrameworkModel();
        DubboBootstrap dubbo = DubboBootstrap.newInstance(framework);
        dubbo.application(DubboLoopback.application("dubbo-ends")).tracing(dubboTracing())
                .registry(new org.apache.dubbo.config.RegistryConfig("N/A")).protocol(protocol).service(service)
                .reference(reference).start();
        ApplicationModel dubboApp = dubbo.getApplicationModel();
        dubboHop.tracer = () -> dubboApp.getBeanFactory().getBean(Tracer.class);
        int dubboPort = service.getExportedUrls().get(0).getPort();
        ferryHop.next = ferry.reference(ReferenceConfig.builder(Traced.class)
                .url("dubbo://127.0.0.1:" + dubboPort).timeout(Duration.ofSeconds(5)).build());

        String[] hops = reference.get().onward().split("\\|");

        String[] atFerry = hops[0].split("/");
        String[] atDubbo = hops[1].split("/");
        assertTrue(atFerry[2].matches(TRACEPARENT), "Dubbo's consumer sent " + atFerry[2]);
        String trace = atFerry[2].substring(3, 35);
        String dubboClientSpan = atFerry[2].substring(36, 52);
        await().until(() -> tracing.spans().size() == 2);
        SpanData ferryServer = only(SpanKind.SERVER, "onward");
        SpanData ferryClient = only(SpanKind.CLIENT, "here");
        assertEquals(trace, ferryServer.getTraceId(), "Ferry's provider continues Dubbo's trace");
        assertEquals(dubboClientSpan, ferryServer.getParentSpanId());
        assertEquals(ferryServer.getSpanId(), atFerry[1], "Ferry's implementation runs in its server span");
        assertEquals(ferryServer.getSpanId(), ferryClient.getParentSpanId());
        assertEquals("00-" + trace + "-" + ferryClient.getSpanId() + "-01", atDubbo[2],
                "Ferry's consumer sends the trace context as Dubbo's does");
        assertEquals(trace, atDubbo[0], "Dubbo's provider continues the trace Ferry passed on");
        assertNotEquals(ferryClient.getSpanId(), atDubbo[1], "in a server span of its own");
    }

    private SpanData only(SpanKind kind, String method) {
        String name = Traced.class.getName() + "/" + method;
        List<SpanData> found = tracing.spans().stream().filter(s -> s.getKind() == kind && s.getName().equals(name))
                .toList();
        assertEquals(1, found.size(), () -> kind + " " + name + " in " + tracing.spans());
        return found.get(0);
    }
}
