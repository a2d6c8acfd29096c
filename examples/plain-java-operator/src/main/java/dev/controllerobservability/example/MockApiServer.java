package dev.controllerobservability.example;

import java.net.HttpURLConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

/**
 * The fabric8 mock API server in CRUD mode, ready for a Java Operator SDK leader
 * election: before it runs for leader, the SDK asks the API server (with a
 * {@code SelfSubjectRulesReview}) whether it may use leases, which a real API server
 * answers from RBAC and the mock server in plain CRUD mode refuses (422). The one
 * expectation below answers it; leases themselves are then created and renewed in CRUD
 * mode like any resource. This is the recipe {@code docs/without-spring.md} shows
 * ("Leader election on the mock API server"), which the demo's kubernetes mode follows
 * too.
 */
final class MockApiServer {

	/**
	 * The answer to the SDK's permission check: this identity may do anything with
	 * leases.
	 */
	static final String LEASE_PERMISSIONS = """
			{"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
			 "status": {"resourceRules": [{"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
			                               "verbs": ["*"]}]}}""";

	private MockApiServer() {
	}

	/**
	 * Starts the server on a free port.
	 * @return the running server; {@code destroy()} stops it
	 */
	static KubernetesMockServer start() {
		Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
				new KubernetesMixedDispatcher(responses, List.of()), false);
		server.expect()
			.post()
			.withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
			.andReturn(HttpURLConnection.HTTP_CREATED, LEASE_PERMISSIONS)
			.always();
		server.init();
		return server;
	}

}
