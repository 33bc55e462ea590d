package io.ferry.rpc.config;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The module boundaries of DESIGN.md §1, checked on the compiled main classes of rpc-api, rpc-remoting,
 * rpc-registry and rpc-config: no module reaches into another's {@code internal} package, the API users compile
 * against carries no transport, serialization or registry types, and each module keeps off what it must not use.
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.ferry.rpc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"remoting", "registry", "config"})
    void noModuleImportsAnotherModulesInternals(String module) {
        ArchRule rule = noClasses().that().resideOutsideOfPackage("io.ferry.rpc." + module + "..")
                .should().dependOnClassesThat().resideInAPackage("io.ferry.rpc." + module + ".internal..")
                .because("only rpc-" + module + " itself may use its internal package");
        rule.check(classes);
    }

    @Test
    void theApiUsesNoNettyHessianOrZooKeeper() {
        noClasses().that().resideInAnyPackage("io.ferry.rpc", "io.ferry.rpc.cluster")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "com.alibaba.com.caucho..",
                        "org.apache.zookeeper..", "org.apache.curator..",
                        "io.ferry.rpc.remoting..", "io.ferry.rpc.registry..", "io.ferry.rpc.config..")
                .because("rpc-api is what applications compile against")
                .check(classes);
    }

    @Test
    void remotingKnowsNothingOfTheRegistry() {
        noClasses().that().resideInAPackage("io.ferry.rpc.remoting..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.zookeeper..", "org.apache.curator..",
                        "io.ferry.rpc.registry..", "io.ferry.rpc.config..")
                .check(classes);
    }

    @Test
    void theRegistryUsesNoNettyOfItsOwn() {
        noClasses().that().resideInAPackage("io.ferry.rpc.registry..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.ferry.rpc.remoting..",
                        "io.ferry.rpc.config..")
                .check(classes);
    }

    @Test
    void theRulesSeeEveryModule() {
        for (String p : new String[] {"io.ferry.rpc", "io.ferry.rpc.cluster", "io.ferry.rpc.remoting",
                "io.ferry.rpc.remoting.internal.client", "io.ferry.rpc.registry", "io.ferry.rpc.config"}) {
            if (!classes.containPackage(p)) {
                throw new AssertionError("no classes imported from " + p + ": the rules above would pass vacuously");
            }
        }
    }
}
