package dev.controllerobservability.demo.kubernetes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import dev.controllerobservability.demo.DemoProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's embedded API server answers the SDK's lease permission check as the recipe
 * in {@code docs/without-spring.md} does, so the docs hold the one recipe that the demo
 * and the plain-Java example follow.
 */
class EmbeddedApiServerTests {

	private static final Path DOCS = Path.of("..", "docs", "without-spring.md");

	@Test
	void answersTheLeasePermissionCheckWithTheDocumentedReview() throws IOException {
		assertThat(jsonBlocks()).containsExactly(KubernetesMode.EmbeddedApiServer.LEASE_PERMISSIONS);
		KubernetesMockServer server = new KubernetesMode.EmbeddedApiServer().kubernetesMockServer(new DemoProperties());
		try (KubernetesClient client = server.createClient()) {
			SelfSubjectRulesReview review = client.authorization()
				.v1()
				.selfSubjectRulesReview()
				.create(new SelfSubjectRulesReviewBuilder().withNewSpec().withNamespace("default").endSpec().build());
			assertThat(review.getStatus().getResourceRules()).singleElement().satisfies((rule) -> {
				assertThat(rule.getApiGroups()).containsExactly("coordination.k8s.io");
				assertThat(rule.getResources()).containsExactly("leases");
				assertThat(rule.getVerbs()).containsExactly("*");
			});
		}
		finally {
			server.destroy();
		}
	}

	@Test
	void holdsTheConfiguredProvisionersBeforeTheOperatorStarts() {
		DemoProperties properties = new DemoProperties();
		DemoProperties.Provisioner gpu = new DemoProperties.Provisioner();
		gpu.setGpu(true);
		properties.getProvisioners().put("gpu", gpu);
		properties.getProvisioners().put("spot", new DemoProperties.Provisioner());
		KubernetesMockServer server = new KubernetesMode.EmbeddedApiServer().kubernetesMockServer(properties);
		try (KubernetesClient client = server.createClient()) {
			assertThat(client.resources(ProvisionerResource.class).inNamespace("default").list().getItems())
				.extracting((provisioner) -> provisioner.getMetadata().getName() + " " + provisioner.getSpec().isGpu())
				.containsExactlyInAnyOrder("gpu true", "spot false");
		}
		finally {
			server.destroy();
		}
	}

	private static List<String> jsonBlocks() throws IOException {
		Matcher block = Pattern.compile("(?ms)^```json\n(.*?)\n```$").matcher(Files.readString(DOCS));
		return block.results().map((result) -> result.group(1)).toList();
	}

}
