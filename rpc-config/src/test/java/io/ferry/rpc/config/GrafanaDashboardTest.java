package io.ferry.rpc.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.rpc.config.fixtures.AdminClient;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.fixtures.ZooKeeperFixture;
import io.ferry.rpc.config.internal.files.Sources;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboard in {@code docs/grafana} held to reality: every metric its queries name is in a real
 * {@code /metrics} scrape (a Ferry with a Prometheus registry that exports and references through a ZooKeeper
 * registry, after calls that succeed and one that fails), every meter Ferry declares has a panel, and the data
 * source is a variable.
 */
class GrafanaDashboardTest {
    static final Path DASHBOARD = Path.of("..", "docs", "grafana", "ferry-dashboard.json");
    /** A metric name in PromQL; what is left once strings, label matchers, ranges and grouping are taken out. */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset", "inf", "nan");

    @RegisterExtension
    final ZooKeeperFixture zk = new ZooKeeperFixture();
    private final AdminClient admin = new AdminClient();

    @Test
    void everyMetricThePanelsQueryIsInARealScrape() throws Exception {
        Set<String> scraped = scrapedNames();
        Set<String> queried = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        for (JsonNode panel : dashboard.get("panels")) {
            if (panel.get("type").asText().equals("row")) {
                continue;
            }
            String title = panel.get("title").asText();
            if (!panel.path("datasource").path("uid").asText().equals("${datasource}")) {
                wrong.add(title + ": its data source is not the ${datasource} variable");
            }
            if (!panel.has("targets") || panel.get("targets").isEmpty()) {
                wrong.add(title + ": no query");
                continue;
            }
            for (JsonNode target : panel.get("targets")) {
                String expr = target.get("expr").asText();
                if (!balanced(expr)) {
                    wrong.add(title + ": unbalanced brackets in " + expr);
                }
                Set<String> names = metricNames(expr);
                if (names.isEmpty()) {
                    wrong.add(title + ": no metric in " + target.get("expr").asText());
                }
                for (String name : names) {
                    queried.add(name);
                    if (!scraped.contains(name)) {
                        wrong.add(title + ": " + name + " is not in the scrape");
                    }
                }
            }
        }
        for (JsonNode variable : dashboard.get("templating").get("list")) {
            String query = variable.path("query").asText();
            Matcher metric = NAME.matcher(query);
            if (query.startsWith("label_values(") && metric.region("label_values(".length(), query.length())
                    .lookingAt() && !scraped.contains(metric.group())) {
                wrong.add("variable " + variable.get("name").asText() + ": " + metric.group()
                        + " is not in the scrape");
            }
        }
        assertEquals(List.of(), wrong, "scraped: " + scraped);

        Set<String> declared = RegistryMetersTest.declaredNames();
        for (String meter : declared) {
            Set<String> its = prometheusNames(meter, declared, scraped);
            assertFalse(its.isEmpty(), meter + " is not in the scrape: " + scraped);
            assertTrue(its.stream().anyMatch(queried::contains), meter + " " + its + " has no panel");
        }
        assertTrue(queried.contains("rpc_client_duration_seconds_count")
                && queried.contains("rpc_server_duration_seconds_sum")
                && queried.contains("rpc_server_duration_seconds_max"), "the calls' timers: " + queried);
    }

    @Test
    void itsDataSourceIsAVariableAndItNamesNoInstanceOfOurs() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        JsonNode first = dashboard.get("templating").get("list").get(0);
        assertEquals("datasource", first.get("type").asText());
        assertEquals("datasource", first.get("name").asText());
        assertEquals("prometheus", first.get("query").asText());
        assertTrue(dashboard.get("uid").asText().startsWith("ferry"));
        assertFalse(Files.readString(DASHBOARD).contains("127.0.0.1"));
    }

    @Test
    void theNamesAreReadAsPromQlHasThem() {
        assertEquals(Set.of("rpc_client_duration_seconds_count"), metricNames(
                "sum by (rpc_service, rpc_method) (rate(rpc_client_duration_seconds_count{job=~\"$job\", "
                        + "rpc_status!=\"OK\"}[$__rate_interval]))"));
        assertEquals(Set.of("a_sum", "a_count"), metricNames("sum(rate(a_sum[5m])) / sum(rate(a_count[5m]))"));
        assertEquals(Set.of("ferry_registry_state"), metricNames("max without (instance) (ferry_registry_state"
                + "{state=\"lost\"}) == 1"));
        assertTrue(balanced("sum(rate(a{b=\")\"}[5m]))"));
        assertFalse(balanced("sum(rate(a[5m])"));
        assertFalse(balanced("sum(rate(a[5m)])"));
    }

    /** Whether every bracket of {@code expr} outside its strings is closed, in order. */
    static boolean balanced(String expr) {
        String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
        StringBuilder open = new StringBuilder();
        for (char c : bare.toCharArray()) {
            int kind = "([{".indexOf(c);
            if (kind >= 0) {
                open.append(")]}".charAt(kind));
            } else if (")]}".indexOf(c) >= 0) {
                if (open.isEmpty() || open.charAt(open.length() - 1) != c) {
                    return false;
                }
                open.setLength(open.length() - 1);
            }
        }
        return open.isEmpty();
    }

    /** The metric names in {@code expr}: identifiers outside strings, braces, brackets and grouping, not calls. */
    static Set<String> metricNames(String expr) {
        String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\$\\{?\\w+}?", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = NAME.matcher(bare);
        while (m.find()) {
            String token = m.group();
            boolean call = bare.substring(m.end()).stripLeading().startsWith("(");
            boolean number = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
            if (!call && !number && !KEYWORDS.contains(token.toLowerCase())) {
                names.add(token);
            }
        }
        return names;
    }

    /** The metric names of a real scrape, after calls that succeeded and one that failed. */
    private Set<String> scrapedNames() throws Exception {
        Ferry ferry = zk.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .application(ApplicationConfig.builder().name("dashboard").qosEnable(true).qosPort(0).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .registry(zk.registry("dashboard.cache"))
                .observability(Observability.meters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
                .build());
        ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
        UserService users = ferry.reference(ReferenceConfig.builder(UserService.class).build());
        assertEquals("hello a", users.hello("a"));
        assertThrows(UserNotFoundException.class, () -> users.getUser(-1));

        AdminClient.Answer answer = admin.get(ferry, "/metrics");
        assertEquals(200, answer.status());
        Set<String> names = new TreeSet<>();
        for (String line : answer.body().split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                Matcher m = NAME.matcher(line);
                if (m.lookingAt()) {
                    names.add(m.group());
                }
            }
        }
        return names;
    }

    /**
     * The scraped names of {@code meter} ({@code ferry.retries}: {@code ferry_retries_total}), which another meter's
     * longer name ({@code ferry.retries.refused}) does not claim.
     */
    private static Set<String> prometheusNames(String meter, Set<String> declared, Set<String> scraped) {
        String prefix = meter.replace('.', '_');
        Set<String> its = new TreeSet<>();
        for (String name : scraped) {
            boolean mine = name.equals(prefix) || name.startsWith(prefix + "_");
            boolean longer = declared.stream().map(d -> d.replace('.', '_'))
                    .anyMatch(d -> d.length() > prefix.length() && d.startsWith(prefix) && name.startsWith(d));
            if (mine && !longer) {
                its.add(name);
            }
        }
        return its;
    }
}
