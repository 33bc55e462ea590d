package io.ferry.rpc.config;

import com.microsoft.playwright.Dialog;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import io.ferry.rpc.config.fixtures.Chromium;
import io.ferry.rpc.config.fixtures.FerryFixture;
import io.ferry.rpc.config.fixtures.UserNotFoundException;
import io.ferry.rpc.config.fixtures.UserService;
import io.ferry.rpc.config.fixtures.UserServiceImpl;
import io.ferry.rpc.config.internal.files.Sources;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin port's page ({@code GET /}) in a real headless Chromium, as an operator sees it: the services, the
 * references with their providers and states, the connections, and live calls/s and errors from the meters, with
 * a provider and a consumer calling meanwhile; names from the configuration written as text whatever they hold; and
 * the rest of the page where metrics are off; the offline and online buttons, which ask first. Skipped where the
 * system has no Chromium.
 *
 * <p>{@code rpc-benchmark/admin-page.sh} saves the README's picture of the page with the last test here.
 */
class AdminPageTest {
    private static final String SERVICE = UserService.class.getName();
    /** What a hostile configuration could hold: if the page wrote it as HTML, the image's handler would run. */
    private static final String HOSTILE = "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>";
    private static final Pattern NOT_ZERO = Pattern.compile("[1-9]");

    @RegisterExtension
    static final Chromium chromium = new Chromium();
    @RegisterExtension
    final FerryFixture ferries = new FerryFixture();

    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService callers = Executors.newFixedThreadPool(2);
    private Ferry ferry;

    static {
        PlaywrightAssertions.setDefaultAssertionTimeout(20_000); // a poll a second, on a busy machine
    }

    @AfterEach
    void stopCalling() throws InterruptedException {
        stop.set(true);
        callers.shutdown();
        assertTrue(callers.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** One Ferry that exports the users service and calls it through a reference by url. */
    private UserService users(String application, String group, Observability observability) {
        Ferry.Builder builder = Ferry.builder().shutdownHook(false).sources(Sources.none())
                .application(ApplicationConfig.builder().name(application).qosEnable(true).qosPort(0).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build());
        if (observability != null) {
            builder.observability(observability);
        }
        Ferry ferry = ferries.track(builder.build());
        int port = ferry.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).group(group).build());
        this.ferry = ferry;
        return ferry.reference(ReferenceConfig.builder(UserService.class).group(group)
                .url("dubbo://127.0.0.1:" + port).build());
    }

    private Page open() {
        Page page = chromium.page(1280, 720);
        page.navigate("http://127.0.0.1:" + ferry.adminPort() + "/");
        return page;
    }

    /** Two callers, each calling until the test ends; one call in 20 fails with the service's own exception. */
    private void callUntilTheEnd(UserService users) {
        for (int i = 0; i < 2; i++) {
            callers.execute(() -> {
                for (long n = 1; !stop.get(); n++) {
                    if (n % 20 == 0) {
                        assertThrows(UserNotFoundException.class, () -> users.getUser(-1));
                    } else {
                        users.hello("load");
                    }
                }
            });
        }
    }

    private static Locator callsRow(Page page, String side, String method) {
        return page.locator("#calls tr[data-side='" + side + "'][data-service='" + SERVICE + "'][data-method='"
                + method + "']");
    }

    @Test
    void showsServicesProvidersConnectionsAndLiveCallsFromTheMeters() throws Exception {
        UserService users = users("orders", null, Observability.meters(new PrometheusMeterRegistry(
                PrometheusConfig.DEFAULT)));
        assertEquals("hello first", users.hello("first"));
        assertThrows(UserNotFoundException.class, () -> users.getUser(-7));
        String provider = "127.0.0.1:" + ferry.port();
        callUntilTheEnd(users);

        Page page = open();

        assertThat(page.locator("#application")).hasText("orders");
        assertThat(page.locator("#ready")).hasText("ready");
        assertThat(page.locator("#services tbody")).containsText(SERVICE);
        Locator providerRow = page.locator("#references tbody tr", new Page.LocatorOptions().setHasText(provider));
        assertThat(providerRow).containsText(SERVICE);
        assertThat(providerRow.locator("td").nth(5)).hasText("ready");
        assertThat(page.locator("#connections tbody tr", new Page.LocatorOptions().setHasText(provider)).first())
                .containsText("READY");
        assertThat(callsRow(page, "client", "hello").locator("td.rate")).hasText(NOT_ZERO);
        assertThat(callsRow(page, "server", "hello").locator("td.rate")).hasText(NOT_ZERO);
        assertThat(callsRow(page, "client", "getUser").locator("td.errors")).hasText(NOT_ZERO);
        assertThat(callsRow(page, "server", "getUser").locator("td.errors")).hasText(NOT_ZERO);
        assertThat(page.locator("#metrics-off")).isHidden();
    }

    @Test
    void aProcessThatOnlyServesHeadlinesTheCallsItServes() {
        Ferry provider = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .application(ApplicationConfig.builder().name("users").qosEnable(true).qosPort(0).build())
                .protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .observability(Observability.meters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))).build());
        int port = provider.export(ServiceConfig.builder(UserService.class, new UserServiceImpl()).build());
        Ferry consumer = ferries.track(Ferry.builder().shutdownHook(false).sources(Sources.none())
                .application(ApplicationConfig.of("callers")).build());
        callUntilTheEnd(consumer.reference(ReferenceConfig.builder(UserService.class)
                .url("dubbo://127.0.0.1:" + port).build()));
        ferry = provider;

        Page page = open();

        assertThat(page.locator("#rates")).containsText("this process's services: ");
        assertThat(page.locator("#rates")).hasText(Pattern.compile("services: [1-9]"));
        assertThat(page.locator("#references tbody tr")).hasCount(0);
    }

    /**
     * Not a test of Ferry: the README's picture of another process's page (the demo's, under load), taken by
     * {@code rpc-benchmark/admin-page.sh}. Runs only when {@code ferry.adminPage.url} names the page.
     */
    @Test
    @EnabledIfSystemProperty(named = "ferry.adminPage.url", matches = "http://.+")
    void savesTheAdminPageOfARunningFerry() {
        Path screenshot = Path.of(System.getProperty("ferry.adminPage.screenshot", "target/admin-page.png"));
        Page page = chromium.page(1280, 720);
        page.navigate(System.getProperty("ferry.adminPage.url"));
        // a minute of polls, so that the chart has a history to show
        page.waitForFunction("() => history.length >= 60", null,
                new Page.WaitForFunctionOptions().setTimeout(120_000));
        assertThat(page.locator("#calls td.rate").filter(new Locator.FilterOptions().setHasText(NOT_ZERO)).first())
                .isVisible(); // under load: some method's calls/s
        page.screenshot(new Page.ScreenshotOptions().setPath(screenshot).setFullPage(true));
        System.out.println("saved " + screenshot.toAbsolutePath());
    }

    @Test
    void namesFromTheConfigurationAreWrittenAsTextAndNoScriptOfTheirsRuns() {
        UserService users = users(HOSTILE, HOSTILE, Observability.meters(new PrometheusMeterRegistry(
                PrometheusConfig.DEFAULT)));
        users.hello("x");

        Page page = open();

        assertThat(page.locator("#application")).hasText(HOSTILE);
        assertThat(page.locator("#services tbody td").nth(1)).hasText(HOSTILE);
        assertThat(page.locator("#references tbody td").nth(1)).hasText(HOSTILE);
        assertThat(page.locator("#calls tbody")).containsText("hello");
        assertThat(page).hasTitle("Ferry " + HOSTILE);
        assertEquals(0, page.locator("img").count(), "no element was made of the names");
        assertEquals(1, page.locator("script").count(), "the page's own script only");
        assertEquals(true, page.evaluate("() => window.pwned === undefined"));
    }

    @Test
    void withoutMetersThePageSaysMetricsAreOffAndShowsTheRest() {
        users("plain", null, null).hello("x");

        Page page = open();

        assertThat(page.locator("#metrics-off")).isVisible();
        assertThat(page.locator("#metrics-off")).containsText("metrics are off");
        assertThat(page.locator("#services tbody")).containsText(SERVICE);
        assertThat(page.locator("#references tbody")).containsText("ready");
        assertThat(page.locator("#calls tbody tr")).hasCount(0);
    }

    @Test
    void theOfflineAndOnlineButtonsAskFirstThenPost() {
        users("orders", null, null).hello("x");
        Page page = open();
        assertThat(page.locator("#ready")).hasText("ready");

        page.onceDialog(Dialog::dismiss);
        page.locator("#offline").click();
        assertThat(page.locator("#command")).isEmpty();

        page.onceDialog(Dialog::accept);
        page.locator("#offline").click();
        assertThat(page.locator("#command")).containsText("POST /offline: 200");
        assertThat(page.locator("#ready")).hasText("not ready: offline: POST /online to take calls again");
        assertThat(page.locator("#services tbody")).containsText("offline");

        page.onceDialog(Dialog::accept);
        page.locator("#online").click(); // enabled by the next poll: the click waits for it
        assertThat(page.locator("#command")).containsText("POST /online: 200");
        assertThat(page.locator("#ready")).hasText("ready");
    }
}
