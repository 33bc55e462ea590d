package io.ferry.sample;

import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.sample.api.Greeter;
import io.ferry.sample.consumer.ConsumerApplication;
import io.ferry.sample.provider.ProviderApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sample's provider and consumer, started as their main methods start them (their own files, the starter's
 * auto-configuration, Tomcat and Actuator), on random ports on 127.0.0.1 and a real ZooKeeper in place of the
 * embedded one: a web request to the consumer makes a real call to the provider, and Actuator shows Ferry's health
 * and meters.
 */
class SampleApplicationsTest {
    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private String[] args() {
        return new String[] {"--server.address=127.0.0.1", "--server.port=0", "--ferry.protocol.host=127.0.0.1",
                "--ferry.protocol.port=0", "--ferry.registry.address=zookeeper://127.0.0.1:" + zk.server().port(),
                "--ferry.registry.file=none", "--spring.main.register-shutdown-hook=false"};
    }

    @Test
    void theConsumerCallsTheProviderAndActuatorShowsFerry() throws Exception {
        try (ConfigurableApplicationContext provider = ProviderApplication.run(args());
             ConfigurableApplicationContext consumer = ConsumerApplication.run(args())) {
            assertEquals(1, zk.registeredProviders(Greeter.class).size(), "provider.yml's scan exported it");
            // check=false in consumer.properties: the consumer may have started before it saw the provider
            await().atMost(Duration.ofSeconds(20)).until(() -> get(consumer, "/greet?name=sample").statusCode()
                    == 200);
            assertEquals("Hello boot, from greeter-provider", get(consumer, "/greet?name=boot").body());

            String health = get(consumer, "/actuator/health/ferry").body();
            assertTrue(health.endsWith("\"status\":\"UP\"}"), health);
            assertTrue(health.contains("\"interface\":\"io.ferry.sample.api.Greeter\""), health);
            assertTrue(health.contains("\"ready\":1"), health);
            String providerHealth = get(provider, "/actuator/health/ferry").body();
            assertTrue(providerHealth.endsWith("\"status\":\"UP\"}"), providerHealth);
            assertTrue(providerHealth.contains("\"registered\":true"), providerHealth);

            String scrape = get(provider, "/actuator/prometheus").body();
            assertTrue(scrape.contains("rpc_server_duration_seconds_count{"), scrape);
            assertTrue(scrape.contains("rpc_service=\"io.ferry.sample.api.Greeter\""), scrape);
            String metric = get(consumer, "/actuator/metrics/rpc.client.duration").body();
            assertTrue(metric.contains("\"name\":\"rpc.client.duration\""), metric);
        }
    }

    private HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws IOException,
            InterruptedException {
        String port = app.getEnvironment().getProperty("local.server.port");
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
