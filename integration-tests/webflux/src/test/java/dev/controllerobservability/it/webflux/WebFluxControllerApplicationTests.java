package dev.controllerobservability.it.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.DispatcherHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On WebFlux, without the servlet stack, the starter records operations from the
 * annotation and from {@code observe}, serves them on {@code /actuator/prometheus} and
 * serves its own endpoints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMetrics
class WebFluxControllerApplicationTests {

	@LocalServerPort
	private int port;

	@Autowired
	private WebFluxControllerApplication.AsyncProvisioner asyncProvisioner;

	private WebTestClient client;

	@BeforeEach
	void client() {
		this.client = WebTestClient.bindToServer().baseUrl("http://localhost:" + this.port).build();
	}

	@Test
	void runsOnTheReactiveStackOnly(ApplicationContext context) {
		assertThat(context.getBeanNamesForType(DispatcherHandler.class)).isNotEmpty();
		assertThat(isPresent("org.springframework.web.servlet.DispatcherServlet")).isFalse();
	}

	@Test
	void recordsAnnotatedOperationsCalledFromHandlers() {
		this.client.get()
			.uri("/provisioners/gpu/bind/3")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("3");
		this.client.get().uri("/provisioners/gpu/bind/-1").exchange().expectStatus().isBadRequest();
		this.client.get().uri("/provisioners/gpu/bind/2").exchange().expectStatus().isOk();
		assertThat(scrape()).contains(
				"# HELP karpenter_allocation_controller_bind_duration_seconds Duration of binding pods to nodes.\n",
				"# TYPE karpenter_allocation_controller_bind_duration_seconds histogram\n",
				"karpenter_allocation_controller_bind_duration_seconds_count{cluster=\"dev\",error=\"none\","
						+ "provisioner=\"gpu\",result=\"success\"} 2\n",
				"karpenter_allocation_controller_bind_duration_seconds_count{cluster=\"dev\",error=\"IllegalArgumentException\","
						+ "provisioner=\"gpu\",result=\"error\"} 1\n",
				"karpenter_allocation_controller_bind_duration_seconds_bucket{cluster=\"dev\",error=\"none\","
						+ "provisioner=\"gpu\",result=\"success\",le=\"5.0\"} 2\n",
				"karpenter_allocation_controller_bind_in_flight{cluster=\"dev\",provisioner=\"gpu\"} 0.0\n");
	}

	@Test
	void recordsObservedOperationsCalledFromHandlers() {
		this.client.get()
			.uri("/provisioners/spot/launch")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("launched for spot");
		assertThat(scrape()).contains("karpenter_launch_duration_seconds_count{cluster=\"dev\",error=\"none\","
				+ "provisioner=\"spot\",result=\"success\"} 1\n");
	}

	@Test
	void annotatedMonoIsOneCallPerSubscriptionIncludingTheRetry() {
		this.client.get()
			.uri("/provisioners/retried/provision")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("provisioned retried at attempt 2");
		assertThat(scrape()).contains(
				"karpenter_provision_duration_seconds_count{cluster=\"dev\",error=\"IllegalStateException\","
						+ "provisioner=\"retried\",result=\"error\"} 1\n",
				"karpenter_provision_duration_seconds_count{cluster=\"dev\",error=\"none\","
						+ "provisioner=\"retried\",result=\"success\"} 1\n",
				"karpenter_provision_in_flight{cluster=\"dev\",provisioner=\"retried\"} 0.0\n");
	}

	@Test
	void monoIsInFlightUntilItsWorkEnds() throws Exception {
		CompletableFuture<HttpResponse<String>> response = HttpClient.newHttpClient()
			.sendAsync(HttpRequest
				.newBuilder(URI.create("http://localhost:" + this.port + "/provisioners/held/provision-when-released"))
				.build(), HttpResponse.BodyHandlers.ofString());
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(scrape())
				.contains("karpenter_provision_in_flight{cluster=\"dev\",provisioner=\"held\"} 1.0\n")
				.doesNotContain("provisioner=\"held\",result="));
		this.asyncProvisioner.release();
		assertThat(response.get(30, TimeUnit.SECONDS).body()).isEqualTo("released held");
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(scrape()).contains(
					"karpenter_provision_duration_seconds_count{cluster=\"dev\",error=\"none\","
							+ "provisioner=\"held\",result=\"success\"} 1\n",
					"karpenter_provision_in_flight{cluster=\"dev\",provisioner=\"held\"} 0.0\n"));
	}

	@Test
	void fluxIsOneCallPerRequestNotOnePerElement() {
		this.client.get()
			.uri("/provisioners/listed/nodes")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.isEqualTo("node-anode-bnode-c");
		assertThat(scrape()).contains("karpenter_list_nodes_duration_seconds_count{cluster=\"dev\",error=\"none\","
				+ "provisioner=\"listed\",result=\"success\"} 1\n");
	}

	@Test
	void servesTheCatalogTheRulesAndTheLintFindings() {
		this.client.get().uri("/provisioners/default/bind/1").exchange().expectStatus().isOk();
		this.client.get()
			.uri("/actuator/controllermetrics")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.namespace")
			.isEqualTo("karpenter")
			.jsonPath("$.metrics[?(@.name == 'karpenter_allocation_controller_bind_duration_seconds')].labels[*]")
			.isEqualTo(List.of("cluster", "error", "provisioner", "result"));
		this.client.get()
			.uri("/actuator/controllerrules")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.group")
			.isEqualTo("karpenter.rules");
		this.client.get()
			.uri("/actuator/controllerrules/prometheusrule")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.value((body) -> assertThat(body)
				.startsWith("apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n"));
		this.client.get()
			.uri("/actuator/controllermetricslint")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.controller")
			.isEmpty();
	}

	private String scrape() {
		return this.client.get()
			.uri("/actuator/prometheus")
			.accept(MediaType.TEXT_PLAIN)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, WebFluxControllerApplicationTests.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

}
