package io.ferry.rpc.spring.boot;

import io.ferry.rpc.config.FerryStatus;
import io.ferry.rpc.config.FerryStatus.RegistryState;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Ferry's health, as {@code /actuator/health/ferry} shows it:
 * <ul>
 *   <li>DOWN when the registry's session is lost, or a reference made with {@code check} has no ready provider;</li>
 *   <li>OUT_OF_SERVICE while the Ferry closes, or while an operator has its services offline;</li>
 *   <li>else UP (a suspended registry session included: known providers keep being called).</li>
 * </ul>
 * Details: the registry's state, each service (interface, version, group, registered) and each reference
 * (interface, id, version, group, check, providers known and ready, and, while the registry lists none and
 * empty-list protection keeps calling those still connected, {@code keptByEmptyProtection}: how many; the health
 * stays UP then, since calls succeed), at most {@value #LISTED} of each with the
 * number left out; never an address, a setting's value, a token or a credential. Reads {@link FerryStatus}, which
 * never waits on the network.
 */
public final class FerryHealthIndicator implements HealthIndicator {
    /** The most services, and the most references, the details list. */
    static final int LISTED = 50;
    private final Supplier<FerryStatus> status;

    public FerryHealthIndicator(Supplier<FerryStatus> status) {
        this.status = status;
    }

    @Override
    public Health health() {
        FerryStatus now = status.get();
        List<String> down = new ArrayList<>();
        if (now.registry() == RegistryState.LOST) {
            down.add("the registry's session is lost");
        }
        List<Map<String, Object>> references = new ArrayList<>();
        for (FerryStatus.Reference reference : now.references()) {
            if (reference.check() && reference.ready() == 0) {
                down.add(reference.interfaceName() + " has no ready provider");
            }
            if (references.size() < LISTED) {
                Map<String, Object> shown = member(reference.interfaceName(), reference.version(), reference.group());
                if (reference.id() != null) {
                    shown.put("id", reference.id());
                }
                shown.put("check", reference.check());
                shown.put("providers", reference.known());
                shown.put("ready", reference.ready());
                if (reference.heldByEmptyProtection()) {
                    shown.put("keptByEmptyProtection", reference.kept());
                }
                references.add(shown);
            }
        }
        List<Map<String, Object>> services = new ArrayList<>();
        for (FerryStatus.Service service : now.services()) {
            if (services.size() < LISTED) {
                Map<String, Object> shown = member(service.interfaceName(), service.version(), service.group());
                shown.put("registered", service.registered());
                services.add(shown);
            }
        }
        Health.Builder health = now.closing() ? Health.outOfService().withDetail("reason", "shutting down")
                : !down.isEmpty() ? Health.down().withDetail("reason", String.join("; ", down.subList(0,
                Math.min(down.size(), 5))) + (down.size() > 5 ? "; and " + (down.size() - 5) + " more" : ""))
                : now.offline() ? Health.outOfService().withDetail("reason", "offline") : Health.up();
        health.withDetail("registry", now.registry().name());
        health.withDetail("services", services);
        if (now.services().size() > LISTED) {
            health.withDetail("servicesNotListed", now.services().size() - LISTED);
        }
        health.withDetail("references", references);
        if (now.references().size() > LISTED) {
            health.withDetail("referencesNotListed", now.references().size() - LISTED);
        }
        return health.build();
    }

    private static Map<String, Object> member(String interfaceName, String version, String group) {
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("interface", interfaceName);
        if (version != null && !version.isEmpty()) {
            shown.put("version", version);
        }
        if (group != null && !group.isEmpty()) {
            shown.put("group", group);
        }
        return shown;
    }
}
