package io.ferry.rpc.config.internal.files;

import io.ferry.rpc.config.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.config.option.Scope;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A file can set exactly what the option table says: every option at every scope it declares, and no other. */
class BinderTest {
    @Test
    void theBinderAndTheOptionTableAgreeScopeByScope() {
        for (Scope scope : Binder.FILE_SCOPES) {
            Set<String> declared = new HashSet<>();
            for (Option<?> option : Options.all()) {
                if (option.scopes().contains(scope)) {
                    declared.add(option.name());
                }
            }
            Set<String> bound = new HashSet<>();
            Binder.boundAt(scope).forEach(o -> bound.add(o.name()));
            assertEquals(declared, bound, scope.key());
        }
    }
}
