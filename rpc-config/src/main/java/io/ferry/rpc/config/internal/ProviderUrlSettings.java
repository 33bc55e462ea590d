package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.MethodConfig;
import io.ferry.rpc.config.ServiceConfig;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Option;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The consumer-side settings a provider carries to its consumers in its registry URL, as Dubbo writes them: those
 * set on the service (or the provider's defaults) under their Dubbo names ({@code retries=0}), those set on one of
 * its methods as {@code <method>.<name>} ({@code sayHi.timeout=300}). Only what was set is written: a value left to
 * its default is the consumer's to choose. ({@code timeout} on the service itself is written with the rest of the
 * URL.)
 */
public final class ProviderUrlSettings {
    /** What a service or its provider defaults may carry, by Dubbo's name. */
    static final List<Option<?>> SERVICE = List.of(Options.RETRIES, Options.LOAD_BALANCE, Options.CLUSTER,
            Options.ACTIVES, Options.WEIGHT, Options.WARMUP);
    /** What a method of a service may carry (as {@code method.name}). */
    static final List<Option<?>> METHOD = List.of(Options.TIMEOUT, Options.RETRIES, Options.LOAD_BALANCE,
            Options.ACTIVES);

    private ProviderUrlSettings() {
    }

    /** The URL parameters for {@code service}, sorted by key. */
    public static Map<String, String> of(ServiceConfig<?> service) {
        Map<String, String> parameters = new TreeMap<>();
        Settings own = service.settings();
        for (Option<?> option : SERVICE) {
            Object value = own.get(option);
            if (value != null) {
                parameters.put(option.dubboName(), text(value));
            }
        }
        for (MethodConfig method : service.methods().values()) {
            Settings settings = method.settings();
            for (Option<?> option : METHOD) {
                Object value = settings.get(option);
                if (value != null) {
                    parameters.put(method.name() + "." + option.dubboName(), text(value));
                }
            }
        }
        return parameters;
    }

    /** As the URL spells it: a duration in milliseconds. */
    private static String text(Object value) {
        return value instanceof Duration d ? String.valueOf(d.toMillis()) : String.valueOf(value);
    }
}
