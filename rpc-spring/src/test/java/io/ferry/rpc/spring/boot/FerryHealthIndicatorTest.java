package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.FerryStatus;
import io.ferry.rpc.config.FerryStatus.RegistryState;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The {@code ferry} indicator's verdict for each state a Ferry can be in, and its bounded details. */
class FerryHealthIndicatorTest {
    private static final FerryStatus.Service REGISTERED = new FerryStatus.Service("com.acme.Greeter", "", "", true);
    private static final FerryStatus.Reference READY = new FerryStatus.Reference("greeter", "com.acme.Greeter", "",
            "", true, false, 2, 1);
    private static final FerryStatus.Reference NONE_READY_UNCHECKED = new FerryStatus.Reference(null,
            "com.acme.Audit", "", "", false, false, 1, 0);

    private static Health health(boolean closing, boolean offline, RegistryState registry,
                                 List<FerryStatus.Reference> references) {
        return new FerryHealthIndicator(() -> new FerryStatus(closing, offline, registry, List.of(REGISTERED),
                references)).health();
    }

    @Test
    void upWhileProvidersAreReadyAndTheSessionIsAtWorstSuspended() {
        assertEquals(Status.UP, health(false, false, RegistryState.CONNECTED, List.of(READY)).getStatus());
        assertEquals(Status.UP, health(false, false, RegistryState.SUSPENDED, List.of(READY)).getStatus());
        assertEquals(Status.UP, health(false, false, RegistryState.NONE, List.of(READY, NONE_READY_UNCHECKED))
                .getStatus(), "a reference without check may have no provider");
    }

    @Test
    void downWhenTheSessionIsLostOrACheckedReferenceHasNoReadyProvider() {
        Health lost = health(false, false, RegistryState.LOST, List.of(READY));
        assertEquals(Status.DOWN, lost.getStatus());
        assertEquals("the registry's session is lost", lost.getDetails().get("reason"));
        Health none = health(false, false, RegistryState.CONNECTED, List.of(new FerryStatus.Reference("greeter",
                "com.acme.Greeter", "", "", true, false, 1, 0)));
        assertEquals(Status.DOWN, none.getStatus());
        assertEquals("com.acme.Greeter has no ready provider", none.getDetails().get("reason"));
    }

    @Test
    void upWhileEmptyListProtectionKeepsProvidersAndTheDetailsSaySo() {
        FerryStatus.Reference kept = new FerryStatus.Reference("greeter", "com.acme.Greeter", "", "", true, false, 2,
                2, 2);
        Health health = health(false, false, RegistryState.CONNECTED, List.of(kept, READY));
        assertEquals(Status.UP, health.getStatus(), "calls succeed: the kept providers answer");
        List<?> references = (List<?>) health.getDetails().get("references");
        assertEquals("{interface=com.acme.Greeter, id=greeter, check=true, providers=2, ready=2, "
                + "keptByEmptyProtection=2}", references.get(0).toString());
        assertEquals("{interface=com.acme.Greeter, id=greeter, check=true, providers=2, ready=1}",
                references.get(1).toString(), "said only while it holds");
    }

    @Test
    void outOfServiceWhileClosingOrOffline() {
        assertEquals(Status.OUT_OF_SERVICE, health(true, false, RegistryState.LOST, List.of()).getStatus(),
                "closing, whatever else");
        Health offline = health(false, true, RegistryState.CONNECTED, List.of(READY));
        assertEquals(Status.OUT_OF_SERVICE, offline.getStatus());
        assertEquals("offline", offline.getDetails().get("reason"));
    }

    @Test
    void detailsListAtMostFiftyReferencesAndNameOnlyInterfacesAndCounts() {
        List<FerryStatus.Reference> many = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            many.add(new FerryStatus.Reference("r" + i, "com.acme.Api" + i, "1.0", "", true, true, 1, 1));
        }
        Health health = health(false, false, RegistryState.CONNECTED, many);
        assertEquals(FerryHealthIndicator.LISTED, ((List<?>) health.getDetails().get("references")).size());
        assertEquals(10, health.getDetails().get("referencesNotListed"));
        assertEquals("{interface=com.acme.Api0, version=1.0, id=r0, check=true, providers=1, ready=1}",
                ((List<?>) health.getDetails().get("references")).get(0).toString());
    }
}
