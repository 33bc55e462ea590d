package io.ferry.rpc.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.Named;
import io.ferry.rpc.config.fixtures.WhoAmI;
import io.ferry.rpc.config.internal.files.Sources;
import io.ferry.rpc.testkit.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin port of a Ferry without a registry, over real HTTP on 127.0.0.1: its options from every front end,
 * what each read answers, and every bad request refused without disturbing the RPC port. (Readiness with a
 * registry, offline and online: {@link AdminDrainTest}.)
 */
class AdminPortTest {
    @RegisterExtension
    final FerryFixture fixture = new FerryFixture();
    private final AdminClient admin = new AdminClient();

    private Ferry provider(ApplicationConfig application) {
        return fixture.track(Ferry.builder().application(application)
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build()).shutdownHook(false).build());
    }

    private static ApplicationConfig.Builder withAdmin(String name) {
        return ApplicationConfig.builder().name(name).qosEnable(true).qosPort(0);
    }

    @Test
    void isOffUnlessEnabled() {
        Ferry plain = provider(ApplicationConfig.of("plain"));
        IllegalStateException e = assertThrows(IllegalStateException.class, plain::adminPort);
        assertEquals("qos-enable is false, so no admin port is running", e.getMessage());
    }

    @Test
    void takesItsOptionsFromXmlPropertiesAndSystemProperties() throws Exception {
        Ferry fromXml = fixture.track(Ferry.fromXml(fixture.file("ferry.xml",
                "<ferry:config xmlns:ferry=\"http://ferry.io/schema/ferry\">",
                "  <ferry:application name=\"from-xml\" qos-enable=\"true\" qos-port=\"0\"/>",
                "</ferry:config>")));
        assertEquals(200, admin.get(fromXml, "/health/live").status());

        Ferry fromProperties = fixture.track(Ferry.fromProperties(fixture.file("ferry.properties",
                "ferry.application.name = from-properties", "ferry.application.qos-enable = true",
                "ferry.application.qos-port = 0", "ferry.application.qos-accept-foreign-ip = false")));
        assertEquals(200, admin.get(fromProperties, "/health/live").status());

        Ferry fromSystem = fixture.track(Ferry.builder().application(ApplicationConfig.of("code"))
                .sources(Sources.of(Map.of("ferry.application.qos-enable", "true",
                        "ferry.application.qos-port", "0"), null)).shutdownHook(false).build());
        assertEquals(200, admin.get(fromSystem, "/health/live").status());
        assertEquals("code", fromSystem.application().name(), "-D changes only what it names");

        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> Ferry.fromProperties(
                fixture.file("bad.properties", "ferry.application.qos-port = 70000")));
        assertEquals("bad.properties:1: qosPort: 70000 (expected: 0..65535)", wrong.getMessage().substring(
                wrong.getMessage().indexOf("bad.properties")));
    }

    @Test
    void aPortInUseFailsTheBootstrapNamingTheOption() {
        Ferry first = provider(withAdmin("first").build());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> provider(withAdmin("second").qosPort(first.adminPort()).build()));
        assertTrue(e.getMessage().startsWith("qos-port: cannot listen on 127.0.0.1 port " + first.adminPort()),
                e.getMessage());
    }

    @Test
    void isReadyOnceSomethingIsExported() throws Exception {
        Ferry provider = provider(withAdmin("p").build());
        AdminClient.Answer before = admin.get(provider, "/health/ready");
        assertEquals(503, before.status());
        assertEquals("nothing exported or referenced yet", before.json().get("reason").asText());
        assertEquals(200, admin.get(provider, "/health/live").status());

        provider.export(ServiceConfig.builder(WhoAmI.class, new Named("p")).build());
        AdminClient.Answer after = admin.get(provider, "/health/ready");
        assertEquals(200, after.status(), after.body());
        assertEquals(1, after.json().get("services").asInt());
    }

    @Test
    void servicesShowsExportsAndReferencesWithWhereEachSettingCameFromAndNoCredential() throws Exception {
        String name = "shop \"east\"\n</script>\u2028"; // a user's string, escaped whatever it holds
        Ferry ferry = provider(withAdmin(name).build());
        int port = ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("p")).token("s3cr3t-token")
                .timeout(Duration.ofMillis(700)).build());
        WhoAmI who = ferry.reference(ReferenceConfig.builder(WhoAmI.class).id("who")
                .url("dubbo://127.0.0.1:" + port + "?token=s3cr3t-token").build());
        assertEquals("p", who.who());

        AdminClient.Answer answer = admin.get(ferry, "/services");
        assertEquals(200, answer.status());
        assertFalse(answer.body().contains("s3cr3t"), answer.body());
        JsonNode json = answer.json();
        assertEquals(name, json.get("application").asText());
        JsonNode service = json.get("services").get(0);
        assertEquals(WhoAmI.class.getName(), service.get("interface").asText());
        assertEquals(port, service.get("port").asInt());
        assertTrue(service.get("registered").isNull(), "no registry: nothing to be registered in");
        assertFalse(service.get("offline").asBoolean());
        assertEquals("700 ms code", setting(service, "timeout"));
        assertEquals("****** code", setting(service, "token"));

        JsonNode reference = json.get("references").get(0);
        assertEquals("who", reference.get("id").asText());
        assertEquals("dubbo://127.0.0.1:" + port, reference.get("providersFrom").asText());
        JsonNode provider = reference.get("providers").get(0);
        assertEquals("127.0.0.1:" + port, provider.get("address").asText());
        assertTrue(provider.get("ready").asBoolean());
        assertEquals(1, provider.get("succeeded").asInt());
        assertEquals("2 default", setting(reference, "retries"));
        assertEquals("dubbo://127.0.0.1:" + port + "?token=****** code", setting(reference, "url"));
    }

    /** An option's value and where it was set, from a /services entry. */
    private static String setting(JsonNode entry, String option) {
        for (JsonNode row : entry.get("settings")) {
            if (row.get("option").asText().equals(option) && !row.has("method")) {
                return row.get("value").asText() + " " + row.get("from").asText();
            }
        }
        throw new AssertionError("no " + option + " in " + entry);
    }

    @Test
    void connectionsShowsBothSides() throws Exception {
        Ferry ferry = provider(withAdmin("both").build());
        int port = ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("p")).build());
        ferry.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port).build()).who();

        JsonNode json = admin.get(ferry, "/connections").json();
        JsonNode consumer = json.get("consumer").get("connections").get(0);
        assertEquals("127.0.0.1:" + port, consumer.get("remote").asText());
        assertEquals("READY", consumer.get("state").asText());
        JsonNode provider = json.get("provider").get("connections").get(0);
        assertEquals(consumer.get("local").asText(), provider.get("remote").asText());
        assertTrue(provider.get("lastHeartbeatRttMs").isNull(), "providers send no heartbeats");
    }

    @Test
    void servesItsPageWhichLoadsNothingFromElsewhereAndWritesNoDataAsHtml() throws Exception {
        Ferry ferry = provider(withAdmin("page").build());

        AdminClient.Answer answer = admin.get(ferry, "/");

        assertEquals(200, answer.status());
        assertEquals("text/html; charset=utf-8", answer.response().headers().firstValue("content-type").orElse(""));
        String page = answer.body();
        assertTrue(page.startsWith("<!DOCTYPE html>") && page.contains("fetch(path"), page);
        for (String outside : new String[] {"src=", "href=", "@import", "url(", "http://", "https://", "//cdn"}) {
            assertFalse(page.contains(outside), "the page names nothing outside itself: " + outside);
        }
        for (String html : new String[] {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"}) {
            assertFalse(page.contains(html), "data is written as text only: " + html);
        }
        // the browser test (AdminPageTest) shows what it draws; here: the answers it reads are there
        for (String read : new String[] {"/services", "/connections", "/health/ready", "/calls"}) {
            assertTrue(page.contains("\"" + read + "\""), read);
        }
    }

    @Test
    void refusesBadRequestsAndTheRpcPortNeverNotices() throws Exception {
        Ferry ferry = fixture.track(Ferry.builder().application(withAdmin("bad").build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .adminRequestTimeout(Duration.ofMillis(300)).shutdownHook(false).build());
        int port = ferry.export(ServiceConfig.builder(WhoAmI.class, new Named("p")).build());
        WhoAmI who = ferry.reference(ReferenceConfig.builder(WhoAmI.class).url("dubbo://127.0.0.1:" + port).build());
        assertEquals("p", who.who());
        String rpcConnection = ferry.providerConnections().connections().get(0).remote();

        AdminClient.Answer get = admin.get(ferry, "/offline");
        assertEquals(405, get.status());
        assertEquals("POST", get.response().headers().firstValue("allow").orElse(""));
        assertEquals(405, admin.post(ferry, "/services").status(), "reads are GET only");
        assertEquals(404, admin.get(ferry, "/nothing").status());
        assertEquals(405, admin.post(ferry, "/").status(), "the page is read only");
        // the admin port knows its routes and nothing else: no path reaches a service
        assertEquals(404, admin.post(ferry, "/" + WhoAmI.class.getName() + "/who").status());
        assertEquals(400, admin.post(ferry, "/offline?timeoutMs=soon").status());
        // a page on another site may make the operator's browser POST here: only this port's own page may command
        String self = "127.0.0.1:" + ferry.adminPort();
        assertEquals(403, raw(ferry, "POST /offline HTTP/1.1\r\nHost: " + self + "\r\nOrigin: https://evil.example"
                + "\r\nContent-Length: 0\r\n\r\n").status());
        assertEquals(403, raw(ferry, "POST /online HTTP/1.1\r\nHost: " + self + "\r\nOrigin: null"
                + "\r\nContent-Length: 0\r\n\r\n").status());
        assertEquals(200, raw(ferry, "GET /health/ready HTTP/1.1\r\nHost: " + self
                + "\r\nOrigin: https://evil.example\r\nConnection: close\r\n\r\n").status(), "reads change nothing");
        assertEquals(200, admin.get(ferry, "/health/ready").status(), "a refused command changed nothing");

        assertEquals(431, raw(ferry, "GET /services HTTP/1.1\r\nHost: x\r\nX-Pad: " + "p".repeat(9000)
                + "\r\n\r\n").status());
        assertEquals(414, raw(ferry, "GET /services?" + "q".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                .status());
        assertEquals(413, raw(ferry, "POST /offline HTTP/1.1\r\nHost: x\r\nContent-Length: 9000\r\n\r\n"
                + "b".repeat(9000)).status());
        assertEquals(408, raw(ferry, "GET /services HTTP/1.1\r\nHost: x\r\n").status(), "half a request");
        assertEquals(400, raw(ferry, "\u0000\u0001\u0002\r\n\r\n").status());

        assertEquals("p", who.who(), "the RPC port served on");
        assertEquals(1, ferry.providerConnections().connections().size());
        assertEquals(rpcConnection, ferry.providerConnections().connections().get(0).remote());
        assertFalse(ferry.application().qosAcceptForeignIp());
    }

    private static RawHttp.Answer raw(Ferry ferry, String request) throws IOException {
        try (RawHttp raw = RawHttp.connect("127.0.0.1", ferry.adminPort())) {
            return raw.write(request).readUntilClosed();
        }
    }

    @Test
    void closesWithTheBootstrap() throws Exception {
        Ferry ferry = provider(withAdmin("closing").build());
        int port = ferry.adminPort();
        ferry.close();
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
    }
}
