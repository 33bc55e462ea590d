package io.ferry.rpc.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.ferry.rpc.config.option.MetricsExport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin port's {@code /metrics}: the meters of a Prometheus registry the application gave Ferry (itself or
 * inside a composite), in Prometheus's text format, calls and parts alike; a 404 that says how to get one where
 * there is none. And {@code /calls}, the calls' timers of any meter registry summed for the admin page.
 */
class AdminMetricsTest {
    @RegisterExtension
    final FerryFixture fixture = new FerryFixture();
    private final AdminClient admin = new AdminClient();

    private Ferry ferry(Observability observability) {
        Ferry.Builder builder = Ferry.builder().shutdownHook(false)
                .application(ApplicationConfig.builder().name("metrics").qosEnable(true).qosPort(0).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build());
        if (observability != null) {
            builder.observability(observability);
        }
        return fixture.track(builder.build());
    }

    private static void callOnce(Ferry ferry) {
        int port = ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("p")).build());
        WhoAmI who = ferry.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port).build());
        assertEquals("p", who.who());
    }

    @Test
    void servesThePrometheusRegistrysMetersAsText() throws Exception {
        Ferry ferry = ferry(Observability.meters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        callOnce(ferry);

        AdminClient.Answer answer = admin.get(ferry, "/metrics");

        assertEquals(200, answer.status());
        assertEquals("text/plain; version=0.0.4; charset=utf-8",
                answer.response().headers().firstValue("content-type").orElse(""));
        String text = answer.body();
        assertTrue(text.contains("# TYPE rpc_client_duration_seconds"), text);
        assertTrue(text.contains("rpc_client_duration_seconds_count{error=\"none\",rpc_method=\"who\","
                + "rpc_service=\"" + WhoAmI.class.getName() + "\",rpc_status=\"OK\",rpc_system=\"apache_dubbo\"} 1"),
                text);
        assertTrue(text.contains("ferry_connections"), text);
    }

    @Test
    void findsThePrometheusRegistryInsideAComposite() throws Exception {
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(new SimpleMeterRegistry());
        composite.add(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        Ferry ferry = ferry(Observability.meters(composite));
        callOnce(ferry);

        AdminClient.Answer answer = admin.get(ferry, "/metrics");

        assertEquals(200, answer.status());
        assertTrue(answer.body().contains("rpc_server_duration_seconds_count"), answer.body());
    }

    @Test
    void withoutAPrometheusRegistryItSaysHowToGetOne() throws Exception {
        for (Ferry ferry : new Ferry[] {ferry(null), ferry(Observability.meters(new SimpleMeterRegistry()))}) {
            AdminClient.Answer answer = admin.get(ferry, "/metrics");
            assertEquals(404, answer.status());
            assertTrue(answer.body().contains("PrometheusMeterRegistry"), answer.body());
        }
    }

    @Test
    void aFileAsksForAPrometheusRegistryOfFerrysOwn(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("ferry.properties"), String.join("\n",
                "ferry.application.name = file-metrics",
                "ferry.application.qos-enable = true",
                "ferry.application.qos-port = 0",
                "ferry.application.metrics = prometheus",
                "ferry.protocol.host = 127.0.0.1",
                "ferry.protocol.port = 0"));
        Ferry ferry = fixture.track(Ferry.load(file));
        callOnce(ferry);

        AdminClient.Answer answer = admin.get(ferry, "/metrics");

        assertEquals(200, answer.status());
        String text = answer.body();
        assertTrue(text.contains("rpc_server_duration_seconds_count{error=\"none\",rpc_method=\"who\""), text);
        assertTrue(text.contains("ferry_connections"), text);
        assertTrue(text.contains("jvm_memory_used_bytes") && text.contains("jvm_gc_")
                && text.contains("process_cpu_usage") && text.contains("jvm_threads_live_threads"), text);
        assertEquals(200, admin.get(ferry, "/calls").status());
    }

    @Test
    void aRegistryOfFerrysOwnAndOneFromCodeAreRefusedTogether() {
        Ferry.Builder builder = Ferry.builder().shutdownHook(false)
                .application(ApplicationConfig.builder().metrics(MetricsExport.PROMETHEUS).build())
                .observability(Observability.meters(new SimpleMeterRegistry()));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);

        assertTrue(e.getMessage().startsWith("metrics=prometheus: "), e.getMessage());
        assertTrue(e.getMessage().contains("Observability[meters]"), e.getMessage());
    }

    @Test
    void aRegistryOfFerrysOwnThatNothingWouldServeIsRefused() {
        Ferry.Builder builder = Ferry.builder().shutdownHook(false)
                .application(ApplicationConfig.builder().metrics(MetricsExport.PROMETHEUS).build());

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);

        assertTrue(e.getMessage().startsWith("metrics=prometheus: the admin port") && e.getMessage()
                .contains("qos-enable=true"), e.getMessage());
    }

    @Test
    void aWrongValueNamesTheOptionAndWhatItTakes(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("ferry.properties"), "ferry.application.metrics = graphite\n");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ferry.load(file));

        assertTrue(e.getMessage().contains("metrics") && e.getMessage().contains("graphite")
                && e.getMessage().contains("one of none, prometheus"), e.getMessage());
    }

    @Test
    void callsSumsTheCallTimersPerSideServiceAndMethod() throws Exception {
        Ferry ferry = ferry(Observability.meters(new SimpleMeterRegistry()));
        callOnce(ferry);

        AdminClient.Answer answer = admin.get(ferry, "/calls");

        assertEquals(200, answer.status());
        JsonNode calls = answer.json().get("calls");
        assertEquals(2, calls.size(), answer.body());
        for (int i = 0; i < 2; i++) {
            JsonNode row = calls.get(i);
            assertEquals(i == 0 ? "client" : "server", row.get("side").asText());
            assertEquals(WhoAmI.class.getName(), row.get("service").asText());
            assertEquals("who", row.get("method").asText());
            assertEquals(1, row.get("calls").asLong());
            assertEquals(0, row.get("errors").asLong());
            assertTrue(row.get("totalMs").asDouble() > 0 && row.get("maxMs").asDouble() > 0, answer.body());
        }
    }

    @Test
    void withoutAMeterRegistryCallsSaysMetricsAreOff() throws Exception {
        AdminClient.Answer answer = admin.get(ferry(null), "/calls");
        assertEquals(404, answer.status());
        assertTrue(answer.json().get("error").asText().startsWith("metrics are off"), answer.body());
    }

    @Test
    void isReadOnly() throws Exception {
        Ferry ferry = ferry(Observability.meters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        assertEquals(405, admin.post(ferry, "/metrics").status());
        assertEquals(405, admin.post(ferry, "/calls").status());
    }
}
