package io.ferry.rpc.config.internal;

import io.ferry.rpc.config.option.Resolved;
import io.ferry.rpc.config.option.Settings;
import io.ferry.rpc.option.Option;

import java.util.Map;

/**
 * Stands for a reference's providers' settings before its directory is open: the cluster, balancer and filters are
 * made first (whatever can be refused is, before anything opens), and the directory, once open, is connected here.
 * Gives nothing until then, or for a directory without registry URLs.
 */
final class ProviderValuesRelay implements Resolved.ProviderValues {
    private volatile Resolved.ProviderValues source;

    void connect(Resolved.ProviderValues source) {
        this.source = source;
    }

    @Override
    public Settings.Setting setting(Option<?> option, String method) {
        Resolved.ProviderValues now = source;
        return now == null ? null : now.setting(option, method);
    }

    @Override
    public Settings.Setting methodSetting(Option<?> option, String method) {
        Resolved.ProviderValues now = source;
        return now == null ? null : now.methodSetting(option, method);
    }

    @Override
    public Map<String, Map<Option<?>, Settings.Setting>> byMethod() {
        Resolved.ProviderValues now = source;
        return now == null ? Map.of() : now.byMethod();
    }
}
