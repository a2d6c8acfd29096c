package dev.controllerobservability.example;

import java.util.HashMap;
import java.util.List;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.javaoperatorsdk.operator.OperatorException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Why {@link MockApiServer} answers the SDK's lease permission check: on the mock API
 * server in plain CRUD mode an operator with a leader election does not start: the server
 * refuses the check with 422 Unprocessable Entity.
 */
class LeaseCheckRecipeTests {

	@Test
	void withoutTheRecipeTheOperatorDoesNotStart() {
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				new KubernetesCrudDispatcher(List.of()), false);
		server.init();
		try {
			assertThatExceptionOfType(OperatorException.class)
				.isThrownBy(() -> PlainJavaOperator.start(server.createClient().getConfiguration()))
				.withRootCauseInstanceOf(KubernetesClientException.class)
				.havingRootCause()
				.withMessageContaining(
						"POST at: " + server.url("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews"))
				.withMessageContaining("SelfSubjectRulesReview is invalid");
		}
		finally {
			server.destroy();
		}
	}

}
