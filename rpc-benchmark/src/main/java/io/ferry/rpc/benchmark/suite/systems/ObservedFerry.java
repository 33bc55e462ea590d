package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.config.Observability;
import io.ferry.rpc.config.observation.RpcMeterObservationHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The observability rows, set up as a production deployment would set them up: {@code ferry-metrics} times every
 * call in Prometheus's registry; {@code ferry-tracing} observes every call in an observation registry with
 * micrometer-tracing's handlers (OpenTelemetry's SDK behind Micrometer's bridge, W3C context in the attachments,
 * spans batched to an exporter that drops them) and the meter handlers as Spring Boot groups them with Ferry's
 * starter: Ferry's {@link RpcMeterObservationHandler} first, Micrometer's default one for every other observation.
 * Every call is sampled unless {@code -Dbench.tracing.sampling} gives a probability (Spring Boot's default is 0.1);
 * {@code -Dbench.tracing.meters} is {@code ferry} (that grouping, the default), {@code default} (Micrometer's meter
 * handler alone, as Boot without Ferry's starter) or {@code none} (no meter handler; {@code false} too), to tell the
 * costs apart. The suite loads it for those rows only (Micrometer is on the class path only when they run);
 * {@code ObservationFloorBenchmark} builds the same registries without the network.
 */
public final class ObservedFerry {
    private ObservedFerry() {
    }

    static Observability observability(String system) {
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        return switch (system) {
            case "ferry-metrics" -> Observability.meters(meters);
            case "ferry-tracing" -> Observability.observations(tracing(meters,
                    System.getProperty("bench.tracing.meters", "ferry"), tracerProvider(sampler(),
                            new DroppingExporter())));
            default -> throw new IllegalArgumentException("system: " + system
                    + " (expected: ferry-metrics or ferry-tracing)");
        };
    }

    /**
     * OpenTelemetry's SDK as the row has it: spans of {@code sampler}'s traces batched to {@code exporter}, through
     * a queue of OpenTelemetry's default size (2048 spans), which drops spans when it is full.
     */
    public static SdkTracerProvider tracerProvider(Sampler sampler, SpanExporter exporter) {
        return tracerProvider(sampler, exporter, 2048);
    }

    /** The same with a queue of {@code queueSpans}. */
    public static SdkTracerProvider tracerProvider(Sampler sampler, SpanExporter exporter, int queueSpans) {
        return SdkTracerProvider.builder().setSampler(sampler)
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setMaxQueueSize(queueSpans).build()).build();
    }

    /**
     * The {@code ferry-tracing} row's observation registry: micrometer-tracing's handlers on {@code provider}
     * behind Micrometer's bridge, and {@code meterHandlers} ({@code ferry}, {@code default} or {@code none}, as
     * {@code -Dbench.tracing.meters}) timing calls in {@code meters}.
     */
    public static ObservationRegistry tracing(MeterRegistry meters, String meterHandlers,
                                              SdkTracerProvider provider) {
        io.opentelemetry.api.trace.Tracer otel = provider.get("ferry-bench");
        OtelCurrentTraceContext current = new OtelCurrentTraceContext();
        OtelTracer tracer = new OtelTracer(otel, current, event -> {
        }, new OtelBaggageManager(current, List.of(), List.of()));
        OtelPropagator propagator = new OtelPropagator(
                ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig()
                .observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                        new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                        new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                        new DefaultTracingObservationHandler(tracer)));
        switch (meterHandlers) {
            case "ferry" -> registry.observationConfig().observationHandler(
                    new ObservationHandler.FirstMatchingCompositeObservationHandler(
                            new RpcMeterObservationHandler(meters), new DefaultMeterObservationHandler(meters)));
            case "default" -> registry.observationConfig().observationHandler(
                    new DefaultMeterObservationHandler(meters));
            case "none", "false" -> {
            }
            default -> throw new IllegalArgumentException("bench.tracing.meters: " + meterHandlers
                    + " (expected: ferry, default or none)");
        }
        return registry;
    }

    /**
     * Every trace, unless {@code -Dbench.tracing.sampling} gives a probability (Spring Boot's default is 0.1): a
     * call whose caller's trace was sampled is sampled too.
     */
    private static Sampler sampler() {
        return sampler(Double.parseDouble(System.getProperty("bench.tracing.sampling", "1.0")));
    }

    /** Every trace from 1.0 up; below, that share of traces (parent-based: a sampled caller's call is sampled). */
    public static Sampler sampler(double probability) {
        return probability >= 1.0 ? Sampler.alwaysOn() : Sampler.parentBased(Sampler.traceIdRatioBased(probability));
    }

    /** The no-op exporter: spans are made, batched and handed over, counted, then dropped. */
    public static final class DroppingExporter implements SpanExporter {
        private final LongAdder exported = new LongAdder();

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            exported.add(spans.size());
            return CompletableResultCode.ofSuccess();
        }

        /** Spans handed to it so far (a span the processor's full queue dropped never is). */
        public long exported() {
            return exported.sum();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
