package io.ferry.rpc.benchmark.suite.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/** The records the workload sends and answers, made once so that the benchmark measures the call, not the data. */
public final class Users implements UserService {
    public static final int PAGE_SIZE = 15;
    private static final long EPOCH = 1_700_000_000_000L;

    /**
     * Calls served by every instance in this JVM, so that a provider can say how many of a balancer's calls it got
     * ({@code Bench server --countEvery}); a striped counter, a few nanoseconds per call.
     */
    public static final LongAdder SERVED = new LongAdder();

    private final User user = user(1);
    private final UserPage page = page(1);

    /** A user as a real table would hold it; {@code id} varies the strings a little. */
    public static User user(long id) {
        User u = new User();
        u.setId(id);
        u.setName("Ada Lovelace " + id);
        u.setSex(1);
        u.setBirthday(new Date(EPOCH - 40L * 365 * 24 * 3600 * 1000));
        u.setEmail("ada" + id + "@example.com");
        u.setMobile("+44 20 7946 " + (1000 + id % 9000));
        u.setAddress("12 St James's Square, London SW1Y 4JH, United Kingdom");
        u.setIcon("https://img.example.com/avatars/" + id + ".png");
        u.setPermissions(new ArrayList<>(Arrays.asList(1, 2, 3, 5, 8, 13, 21)));
        u.setStatus(1);
        u.setCreateTime(new Date(EPOCH));
        u.setUpdateTime(new Date(EPOCH + 86_400_000L));
        return u;
    }

    public static UserPage page(int pageNo) {
        List<User> users = new ArrayList<>(PAGE_SIZE);
        for (int i = 0; i < PAGE_SIZE; i++) {
            users.add(user((long) pageNo * PAGE_SIZE + i));
        }
        UserPage p = new UserPage();
        p.setPageNo(pageNo);
        p.setTotal(1000);
        p.setUsers(users);
        return p;
    }

    @Override
    public boolean existUser(String email) {
        SERVED.increment();
        return email.endsWith("@example.com");
    }

    @Override
    public boolean createUser(User u) {
        SERVED.increment();
        return u != null && u.getId() > 0;
    }

    @Override
    public User getUser(long id) {
        SERVED.increment();
        return user;
    }

    @Override
    public UserPage listUser(int pageNo) {
        SERVED.increment();
        return page;
    }

    @Override
    public CompletableFuture<User> getUserAsync(long id) {
        SERVED.increment();
        return CompletableFuture.completedFuture(user);
    }
}
