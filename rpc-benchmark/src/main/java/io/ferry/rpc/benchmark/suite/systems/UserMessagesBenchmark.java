package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.UserPage;
import io.ferry.rpc.benchmark.suite.workload.Users;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What the grpc system's consumer does that no other system's does: map protobuf messages to the workload's records
 * and back ({@link UserMessages}), one thread.
 *
 * <pre>
 *   java -cp "rpc-benchmark/target/classes:$(cat rpc-benchmark/target/classpath.txt)" org.openjdk.jmh.Main \
 *       UserMessagesBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class UserMessagesBenchmark {
    private final User user = Users.user(1);
    private final io.ferry.rpc.benchmark.suite.grpc.User userMessage = UserMessages.message(user);
    private final io.ferry.rpc.benchmark.suite.grpc.UserPage pageMessage = UserMessages.message(Users.page(1));

    /** createUser's argument, on the consumer. */
    @Benchmark
    public Object userToMessage() {
        return UserMessages.message(user);
    }

    /** getUser's answer, on the consumer. */
    @Benchmark
    public User messageToUser() {
        return UserMessages.user(userMessage);
    }

    /** listUser's answer, on the consumer. */
    @Benchmark
    public UserPage messageToPage() {
        return UserMessages.page(pageMessage);
    }
}
