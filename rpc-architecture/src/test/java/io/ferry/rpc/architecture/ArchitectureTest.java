package io.ferry.rpc.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.elements.GivenClassesConjunction;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.ferry.rpc.Ticker;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The module boundaries of DESIGN.md §1, checked on the compiled main classes of every module (rpc-api,
 * rpc-remoting, rpc-registry, rpc-config, rpc-spring and rpc-benchmark; this module depends on all of them;
 * ferry-spring-boot-starter has no classes, and the Boot sample is an application, not Ferry): no module
 * reaches into another's {@code internal} package, the API users compile against depends on nothing else of
 * Ferry and carries no transport, serialization or registry types, each module keeps off what it must not use,
 * no main class uses Netty's internals, none but {@link Ticker} reads the system clock, and the public packages
 * form no cycle.
 *
 * <p>A module's classes are the ones loaded from its class-path entry (its {@code target/classes} in a reactor
 * build, its jar otherwise), found through one class of each, so a package is known to belong to a module
 * without a list of packages kept here by hand.
 */
class ArchitectureTest {
    /** A class of each module, to find the module's class-path entry by. */
    private static final Map<String, String> MODULES = Map.of(
            "rpc-api", "io.ferry.rpc.RpcException",
            "rpc-remoting", "io.ferry.rpc.remoting.Client",
            "rpc-registry", "io.ferry.rpc.registry.Registry",
            "rpc-config", "io.ferry.rpc.config.Ferry",
            "rpc-spring", "io.ferry.rpc.spring.FerryDeclaration",
            "rpc-benchmark", "io.ferry.rpc.benchmark.ReadyProcess");

    private static JavaClasses classes;
    /** Module name to the packages of its main classes. */
    private static final Map<String, Set<String>> packages = new TreeMap<>();

    @BeforeAll
    static void importClasses() throws Exception {
        Map<String, Location> locations = new LinkedHashMap<>();
        for (Map.Entry<String, String> module : MODULES.entrySet()) {
            Class<?> marker = Class.forName(module.getValue());
            locations.put(module.getKey(), Location.of(marker.getProtectionDomain().getCodeSource().getLocation()));
        }
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(locations.values());
        for (JavaClass c : classes) {
            packages.computeIfAbsent(moduleOf(c, locations), m -> new TreeSet<>()).add(c.getPackageName());
        }
    }

    private static String moduleOf(JavaClass c, Map<String, Location> locations) {
        String source = path(c.getSource().orElseThrow().getUri().toString());
        for (Map.Entry<String, Location> module : locations.entrySet()) {
            if (source.startsWith(path(module.getValue().asURI().toString()))) {
                return module.getKey();
            }
        }
        throw new AssertionError(c.getName() + " comes from no module's class-path entry: " + source);
    }

    /** The file path in a class-path URI: {@code file:/a}, {@code file:///a} and {@code jar:file:/a!/} alike. */
    private static String path(String uri) {
        return uri.replaceFirst("^(jar:)?file:/+", "/");
    }

    private static boolean isInternal(String packageName) {
        return (packageName + ".").contains(".internal.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"remoting", "registry", "config", "spring", "benchmark"})
    void noModuleImportsAnotherModulesInternals(String module) {
        GivenClassesConjunction outside = noClasses().that().resideOutsideOfPackage("io.ferry.rpc." + module + "..");
        if (module.equals("config")) {
            outside = outside.and().haveSimpleNameNotStartingWith(OBSERVATION_FLOOR);
        }
        ArchRule rule = outside
                .should().dependOnClassesThat().resideInAPackage("io.ferry.rpc." + module + ".internal..")
                .because("only rpc-" + module + " itself may use its internal package");
        rule.check(classes);
    }

    /**
     * The one exception, a benchmark (and JMH's classes generated for it): it measures rpc-config's observation
     * filters on their own, without a network between them, which no public entry point offers.
     */
    private static final String OBSERVATION_FLOOR = "ObservationFloorBenchmark";

    @Test
    void theApiDependsOnNothingElseOfFerryNorOnNettyHessianOrZooKeeper() {
        String[] api = packages.get("rpc-api").toArray(String[]::new);
        noClasses().that().resideInAnyPackage(api)
                .should().dependOnClassesThat(resideInAPackage("io.ferry..").and(not(resideInAnyPackage(api))))
                .orShould().dependOnClassesThat().resideInAnyPackage("io.netty..", "com.alibaba.com.caucho..",
                        "org.apache.zookeeper..", "org.apache.curator..")
                .because("rpc-api is what applications compile against, and every other module builds on it")
                .check(classes);
    }

    @Test
    void remotingKnowsNothingOfTheRegistry() {
        noClasses().that().resideInAPackage("io.ferry.rpc.remoting..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.zookeeper..", "org.apache.curator..",
                        "io.ferry.rpc.registry..", "io.ferry.rpc.config..", "io.ferry.rpc.benchmark..")
                .check(classes);
    }

    @Test
    void theRegistryUsesNoNettyOfItsOwn() {
        noClasses().that().resideInAPackage("io.ferry.rpc.registry..")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.ferry.rpc.remoting..",
                        "io.ferry.rpc.config..", "io.ferry.rpc.benchmark..")
                .check(classes);
    }

    @Test
    void springNeverReachesBelowRpcSpring() {
        noClasses().that().resideOutsideOfPackage("io.ferry.rpc.spring..")
                .should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .because("rpc-spring is the one module that knows Spring: a thin adapter over rpc-config's option"
                        + " table and bootstrap (DESIGN.md §1)")
                .check(classes);
        noClasses().that().resideOutsideOfPackage("io.ferry.rpc.spring..")
                .should().dependOnClassesThat().resideInAPackage("io.ferry.rpc.spring..")
                .because("nothing of Ferry depends on its Spring adapter")
                .check(classes);
    }

    @Test
    void noLibraryModuleUsesTheBenchmarks() {
        noClasses().that().resideOutsideOfPackage("io.ferry.rpc.benchmark..")
                .should().dependOnClassesThat().resideInAPackage("io.ferry.rpc.benchmark..")
                .because("rpc-benchmark is the demo and the experiments, never a dependency")
                .check(classes);
    }

    @Test
    void noMainClassUsesNettysInternals() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.netty.util.internal..")
                .because("Netty's internal package changes without notice between releases; JCTools, the JDK and"
                        + " Netty's public API offer what Ferry needs")
                .check(classes);
    }

    /** A call to, or a method reference of, {@code System.nanoTime()} or {@code System.currentTimeMillis()}. */
    private static final DescribedPredicate<JavaAccess<?>> SYSTEM_CLOCK = DescribedPredicate.describe(
            "the target is System.nanoTime() or System.currentTimeMillis()",
            access -> access.getTargetOwner().isEquivalentTo(System.class)
                    && Set.of("nanoTime", "currentTimeMillis").contains(access.getName()));

    @Test
    void noMainClassButTickerReadsTheSystemClock() {
        noClasses().that().resideOutsideOfPackage("io.ferry.rpc.benchmark..")
                .and().doNotHaveFullyQualifiedName(Ticker.class.getName())
                .should().accessTargetWhere(SYSTEM_CLOCK)
                .because("time is a parameter: every time read goes through an injected Ticker (Ticker.system() is"
                        + " the one place that reads System.nanoTime()) and wall time through an injected"
                        + " java.time.Clock, so that tests move fake time instead of sleeping; rpc-benchmark is left"
                        + " out, since it measures real elapsed time on purpose")
                .check(classes);
    }

    /**
     * The public packages of all modules form no cycle among themselves.
     *
     * <p>Slicing: one slice per package of {@code io.ferry.rpc} and below (the root package of rpc-api included,
     * which {@code slices().matching("io.ferry.rpc.(**)")} would leave out), each package on its own rather than
     * one slice per module, since Maven already keeps the modules acyclic. Classes in an {@code internal} package,
     * or below one, belong to no slice: the facade-over-internal pattern makes a public package and its own
     * {@code internal} subtree depend on each other by design ({@code config.Ferry} runs on
     * {@code config.internal.*}, which reads the public config types), so only the dependencies from one public
     * class to another count. A cycle through internal classes only (public A → internal → public B → A) is not
     * reported; the internal-package rules above keep such paths within one module. A package's {@code spi}
     * subpackage shares its slice: it holds what the API lends to Ferry's own modules and nothing else
     * ({@code spi.ContextPlumbing}, the operations {@code RpcContext} keeps off its public surface), so the two
     * refer to each other by design.
     */
    @Test
    void thePublicPackagesAreFreeOfCycles() {
        slices().assignedFrom(PUBLIC_PACKAGES).should().beFreeOfCycles().check(classes);
    }

    private static final SliceAssignment PUBLIC_PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String p = javaClass.getPackageName();
            boolean ferry = p.equals("io.ferry.rpc") || p.startsWith("io.ferry.rpc.");
            if (!ferry || isInternal(p)) {
                return SliceIdentifier.ignore();
            }
            // a package's spi is its other face, lent to Ferry's own modules: one slice with it
            return SliceIdentifier.of(p.endsWith(".spi") ? p.substring(0, p.length() - ".spi".length()) : p);
        }

        @Override
        public String getDescription() {
            return "the public (non-internal) packages of io.ferry.rpc";
        }
    };

    @Test
    void everyPackageBelongsToOneModule() {
        Map<String, List<String>> owners = new TreeMap<>();
        packages.forEach((module, own) -> own.forEach(p -> owners.computeIfAbsent(p, k -> new ArrayList<>())
                .add(module)));
        owners.values().removeIf(modules -> modules.size() == 1);
        if (!owners.isEmpty()) {
            throw new AssertionError("packages split over modules (a class placed in another module's package to"
                    + " reach its package-private members?): " + owners);
        }
    }

    @Test
    void theRulesSeeEveryModule() {
        for (String module : MODULES.keySet()) {
            if (packages.getOrDefault(module, Set.of()).isEmpty()) {
                throw new AssertionError("no classes imported from " + module + ": the rules would pass vacuously");
            }
        }
        for (String p : new String[] {"io.ferry.rpc", "io.ferry.rpc.cluster", "io.ferry.rpc.remoting",
                "io.ferry.rpc.remoting.internal.client", "io.ferry.rpc.registry", "io.ferry.rpc.config",
                "io.ferry.rpc.config.internal", "io.ferry.rpc.spring", "io.ferry.rpc.spring.boot",
                "io.ferry.rpc.benchmark", "io.ferry.rpc.benchmark.congestion",
                "io.ferry.rpc.benchmark.suite.jmh"}) {
            if (!classes.containPackage(p)) {
                throw new AssertionError("no classes imported from " + p + ": the rules above would pass vacuously");
            }
        }
    }
}
