package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.UserPage;
import io.ferry.rpc.benchmark.suite.workload.UserService;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The grpc system over real sockets on 127.0.0.1: its provider answers the four workload methods, blocking and
 * async, with the values every other system's provider answers ({@link Users}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcSystemTest {
    private static Provider provider;
    private static Consumer consumer;
    private static UserService users;

    @BeforeAll
    static void start() {
        provider = GrpcSystem.provider("grpc", "127.0.0.1", 0, Tuning.DEFAULTS);
        assertNotEquals(0, provider.port());
        consumer = GrpcSystem.consumer("grpc", "127.0.0.1", provider.port(), Tuning.DEFAULTS);
        users = consumer.service();
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void existUserChecksTheAddress() {
        assertTrue(users.existUser("ada1@example.com"));
        assertFalse(users.existUser("ada1@example.org"));
    }

    @Test
    void createUserTakesTheRecord() {
        assertTrue(users.createUser(Users.user(7)));
        assertFalse(users.createUser(Users.user(0)), "the provider read the id it was sent");
    }

    @Test
    void getUserAnswersTheWorkloadsUser() {
        assertSameUser(Users.user(1), users.getUser(1));
    }

    @Test
    void getUserAsyncAnswersTheSameUser() throws Exception {
        assertSameUser(Users.user(1), users.getUserAsync(1).get(30, TimeUnit.SECONDS));
    }

    @Test
    void listUserAnswersAPageOfFifteen() {
        UserPage expected = Users.page(1);
        UserPage page = users.listUser(1);
        assertEquals(expected.getPageNo(), page.getPageNo());
        assertEquals(expected.getTotal(), page.getTotal());
        assertEquals(Users.PAGE_SIZE, page.getUsers().size());
        for (int i = 0; i < Users.PAGE_SIZE; i++) {
            assertSameUser(expected.getUsers().get(i), page.getUsers().get(i));
        }
    }

    /** The executors one run can set beside the suite's choice ({@code grpc@bench.grpc.executor=...}). */
    @ParameterizedTest
    @ValueSource(strings = {"forkjoin", "cached", "direct"})
    void everyExecutorServesAndCallsBack(String executor) throws Exception {
        System.setProperty("bench.grpc.executor", executor);
        try (Provider other = GrpcSystem.provider("grpc", "127.0.0.1", 0, Tuning.DEFAULTS);
             Consumer calling = GrpcSystem.consumer("grpc", "127.0.0.1", other.port(), Tuning.DEFAULTS)) {
            assertSameUser(Users.user(1), calling.service().getUser(1));
            assertSameUser(Users.user(1), calling.service().getUserAsync(1).get(30, TimeUnit.SECONDS));
        } finally {
            System.clearProperty("bench.grpc.executor");
        }
    }

    private static void assertSameUser(User expected, User actual) {
        assertEquals(expected.getId(), actual.getId());
        assertEquals(expected.getName(), actual.getName());
        assertEquals(expected.getSex(), actual.getSex());
        assertEquals(expected.getBirthday(), actual.getBirthday());
        assertEquals(expected.getEmail(), actual.getEmail());
        assertEquals(expected.getMobile(), actual.getMobile());
        assertEquals(expected.getAddress(), actual.getAddress());
        assertEquals(expected.getIcon(), actual.getIcon());
        assertEquals(expected.getPermissions(), actual.getPermissions());
        assertEquals(expected.getStatus(), actual.getStatus());
        assertEquals(expected.getCreateTime(), actual.getCreateTime());
        assertEquals(expected.getUpdateTime(), actual.getUpdateTime());
    }
}
