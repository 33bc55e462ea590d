package io.ferry.rpc.benchmark.suite.jmh;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.benchmark.suite.systems.ObservedFerry;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import io.ferry.rpc.config.internal.Instrumentation;
import io.ferry.rpc.config.internal.ThreadlessExecutor;
import io.ferry.rpc.config.internal.observation.MicrometerInstrumentation;
import io.ferry.rpc.config.observation.RpcObservations;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What observing one call costs on both sides, without the call: a blocking caller's getUser through Ferry's own
 * observation filters (the consumer's, then the provider's around an implementation that answers at once), one
 * thread, no network, no codec. The attachments the consumer's side writes (the trace context) are copied into the
 * provider's invocation as the wire would carry them. Each {@code observed} value is one way to set up the
 * registries, as the suite's rows set them up:
 * <ul>
 *   <li>{@code none}: the invocations and the implementation alone, the baseline;</li>
 *   <li>{@code metrics}: {@code Observability.meters} (Prometheus's registry, Ferry's timers, no observations);</li>
 *   <li>{@code observations}: an observation registry whose one handler takes every observation and does nothing:
 *       what Micrometer's Observation API costs before any handler works;</li>
 *   <li>{@code tracing}: the {@code ferry-tracing} row (micrometer-tracing on OpenTelemetry's SDK, every call
 *       sampled, spans batched to an exporter that drops them, Ferry's meter handler first);</li>
 *   <li>{@code tracing-default-meters}, {@code tracing-no-meters}: the same with Micrometer's default meter handler,
 *       and with none;</li>
 *   <li>{@code tracing-sampled-0.1}: the same as {@code tracing}, one trace in ten sampled.</li>
 * </ul>
 * Set-up makes one call and fails unless it was observed as the row says (the trace context written into the
 * attachments where there is tracing, none elsewhere; both sides' timers where there are meters; both observations
 * stopped in the {@code observations} row), and tear-down fails a row that traced every call but whose spans did not
 * all reach the exporter, so that a row whose wiring silently records less cannot be measured as cheap.
 * A throughput run with {@link ProcCpuProfiler} gives the CPU per call of the whole JVM, the span processor's thread
 * included; a call's cost is its row's minus {@code none}'s.
 * <pre>
 *   # the class path with Micrometer on it (suite.sh builds it without, unless an observability row runs)
 *   mvn -B -q -pl rpc-benchmark -am -DskipTests compile dependency:build-classpath \
 *       -Dmdep.outputFile=target/classpath.txt -Dbench.classpath.exclude=none
 *   java -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" org.openjdk.jmh.Main \
 *       ObservationFloorBenchmark -f 1 -wi 5 -i 5 -w 2s -r 2s -prof gc \
 *       -prof io.ferry.rpc.benchmark.suite.jmh.ProcCpuProfiler
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ObservationFloorBenchmark {
    @Param({"none", "metrics", "observations", "tracing", "tracing-default-meters", "tracing-no-meters",
            "tracing-sampled-0.1"})
    public String observed;

    /**
     * The span processor's queue: one thread here makes spans more than ten times as fast as either JVM of the
     * suite's tracing row, and OpenTelemetry's default 2048 overflowed (spans dropped unexported, less work measured).
     */
    private static final int QUEUE_SPANS = 1 << 16;

    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ObservedFerry.DroppingExporter exporter = new ObservedFerry.DroppingExporter();
    private final TakesEverything everything = new TakesEverything();
    /** The tracing rows' SDK, shut down after the run; null for the others. */
    private SdkTracerProvider tracerProvider;
    /** Calls made: a row that samples every call must have exported two spans for each. */
    private long calls;
    private Filter clientFilter;
    private Filter serverFilter;
    private Method getUserMethod;
    private ThreadlessExecutor blockingCaller;
    private Invoker implementation;
    private Invoker provider;

    @Setup
    public void setUp() throws NoSuchMethodException {
        getUserMethod = UserService.class.getMethod("getUser", long.class);
        blockingCaller = new ThreadlessExecutor(Runnable::run);
        CompletableFuture<Result> answer = CompletableFuture.completedFuture(Result.of(Users.user(1)));
        implementation = invocation -> answer;
        Instrumentation instrumentation = instrumentation(observed, meters);
        if (instrumentation == null) {
            clientFilter = (invocation, next) -> next.invoke(invocation);
            serverFilter = clientFilter;
        } else {
            clientFilter = instrumentation.consumerFilter();
            serverFilter = instrumentation.providerFilter();
        }
        // the provider's side of the wire: a new invocation with the attachments the consumer's side wrote
        provider = sent -> serverFilter.invoke(new Invocation(sent.service(), "", "", sent.method(),
                sent.arguments(), new HashMap<>(sent.attachments()), Deadline.none(), false, null), implementation);
        checkObserved();
    }

    private void checkObserved() {
        Map<String, Object> sent = new HashMap<>();
        Invoker provider = this.provider;
        this.provider = call -> {
            sent.putAll(call.attachments());
            return provider.invoke(call);
        };
        getUser();
        this.provider = provider;
        boolean traced = observed.startsWith("tracing");
        if (traced != sent.containsKey("traceparent")) {
            throw new IllegalStateException(observed + ": the call was sent with attachments " + sent.keySet());
        }
        if (observed.equals("observations") && everything.stops != 2) {
            throw new IllegalStateException(observed + ": " + everything.stops + " observations stopped, not 2");
        }
        boolean timed = observed.equals("metrics") || (traced && !observed.equals("tracing-no-meters"));
        for (String name : new String[] {RpcObservations.CLIENT, RpcObservations.SERVER}) {
            Timer timer = meters.find(name).timer();
            if (timed != (timer != null && timer.count() == 1)) {
                throw new IllegalStateException(observed + ": " + name + " is " + timer);
            }
        }
    }

    private Instrumentation instrumentation(String observed, PrometheusMeterRegistry meters) {
        return switch (observed) {
            case "none" -> null;
            case "metrics" -> MicrometerInstrumentation.create(null, meters);
            case "observations" -> {
                ObservationRegistry registry = ObservationRegistry.create();
                registry.observationConfig().observationHandler(everything);
                yield MicrometerInstrumentation.create(registry, null);
            }
            case "tracing" -> tracing(meters, "ferry", 1.0);
            case "tracing-default-meters" -> tracing(meters, "default", 1.0);
            case "tracing-no-meters" -> tracing(meters, "none", 1.0);
            case "tracing-sampled-0.1" -> tracing(meters, "ferry", 0.1);
            default -> throw new IllegalArgumentException("observed: " + observed);
        };
    }

    private Instrumentation tracing(PrometheusMeterRegistry meters, String meterHandlers, double sampling) {
        tracerProvider = ObservedFerry.tracerProvider(ObservedFerry.sampler(sampling), exporter, QUEUE_SPANS);
        return MicrometerInstrumentation.create(ObservedFerry.tracing(meters, meterHandlers, tracerProvider), null);
    }

    /**
     * Shuts the tracing rows' SDK down, after it exported what it had; fails a row that traced every call but lost
     * spans on the way (its processor's queue overflowed, so it measured less work than the suite's row does).
     */
    @TearDown
    public void tearDown() {
        if (tracerProvider == null) {
            return;
        }
        tracerProvider.forceFlush().join(10, TimeUnit.SECONDS);
        tracerProvider.shutdown().join(10, TimeUnit.SECONDS);
        long expected = 2 * calls;
        if (!observed.equals("tracing-sampled-0.1") && exporter.exported() < expected) {
            throw new IllegalStateException(observed + ": " + (expected - exporter.exported()) + " of " + expected
                    + " spans dropped before the exporter");
        }
    }

    @Benchmark
    public Object getUser() {
        Map<String, Object> attachments = new HashMap<>();
        Invocation call = new Invocation(UserService.class.getName(), "", "", getUserMethod, new Object[] {1L},
                attachments, Deadline.none(), false, blockingCaller);
        calls++;
        return clientFilter.invoke(call, provider).join();
    }

    /** A handler that takes every observation and does nothing with it but count those that stop. */
    private static final class TakesEverything implements ObservationHandler<Observation.Context> {
        private int stops;

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

        @Override
        public void onStop(Observation.Context context) {
            stops++;
        }
    }
}
