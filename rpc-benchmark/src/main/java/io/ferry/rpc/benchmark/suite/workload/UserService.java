package io.ferry.rpc.benchmark.suite.workload;

import java.util.concurrent.CompletableFuture;

/**
 * The benchmark's service, the same for every system: a cheap check, a write of one record, a read of one, and a
 * page of fifteen. {@code getUserAsync} is getUser for callers that keep a window of calls in flight.
 */
public interface UserService {
    boolean existUser(String email);

    boolean createUser(User user);

    User getUser(long id);

    UserPage listUser(int pageNo);

    CompletableFuture<User> getUserAsync(long id);
}
