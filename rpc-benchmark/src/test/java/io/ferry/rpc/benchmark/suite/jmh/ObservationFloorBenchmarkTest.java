package io.ferry.rpc.benchmark.suite.jmh;

import io.ferry.rpc.Result;
import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ObservationFloorBenchmarkTest {
    /**
     * Set-up fails a row whose call is not observed as the row says, tear-down one whose spans did not all reach the
     * exporter; each row answers as the provider does.
     */
    @ParameterizedTest
    @ValueSource(strings = {"none", "metrics", "observations", "tracing", "tracing-default-meters",
            "tracing-no-meters", "tracing-sampled-0.1"})
    void everyRowObservesItsCallAsItSays(String observed) throws NoSuchMethodException {
        ObservationFloorBenchmark benchmark = new ObservationFloorBenchmark();
        benchmark.observed = observed;
        benchmark.setUp();

        Object answer = benchmark.getUser();
        benchmark.tearDown();

        assertEquals(Users.user(1).getId(), ((User) ((Result) answer).value()).getId());
    }
}
