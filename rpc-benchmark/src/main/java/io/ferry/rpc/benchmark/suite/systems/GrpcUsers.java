package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.grpc.ExistUserRequest;
import io.ferry.rpc.benchmark.suite.grpc.GetUserRequest;
import io.ferry.rpc.benchmark.suite.grpc.ListUserRequest;
import io.ferry.rpc.benchmark.suite.grpc.Outcome;
import io.ferry.rpc.benchmark.suite.grpc.User;
import io.ferry.rpc.benchmark.suite.grpc.UserPage;
import io.ferry.rpc.benchmark.suite.grpc.UserServiceGrpc;
import io.ferry.rpc.benchmark.suite.workload.Users;
import io.grpc.stub.StreamObserver;

/**
 * The grpc system's provider: what {@link Users} answers, as messages made once (as {@code Users} makes its records
 * once), so that every system's provider only serializes the same values.
 */
final class GrpcUsers extends UserServiceGrpc.UserServiceImplBase {
    private static final Outcome YES = Outcome.newBuilder().setOk(true).build();
    private static final Outcome NO = Outcome.newBuilder().setOk(false).build();

    private final User user = UserMessages.message(Users.user(1));
    private final UserPage page = UserMessages.message(Users.page(1));

    @Override
    public void existUser(ExistUserRequest request, StreamObserver<Outcome> answer) {
        reply(answer, request.getEmail().endsWith("@example.com") ? YES : NO);
    }

    @Override
    public void createUser(User request, StreamObserver<Outcome> answer) {
        reply(answer, request.getId() > 0 ? YES : NO);
    }

    @Override
    public void getUser(GetUserRequest request, StreamObserver<User> answer) {
        reply(answer, user);
    }

    @Override
    public void listUser(ListUserRequest request, StreamObserver<UserPage> answer) {
        reply(answer, page);
    }

    private static <T> void reply(StreamObserver<T> answer, T value) {
        Users.SERVED.increment();
        answer.onNext(value);
        answer.onCompleted();
    }
}
