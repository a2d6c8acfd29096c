package dev.controllerobservability.demo.kubernetes;

import java.util.Set;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.client.utils.Serialization;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.controllerobservability.demo.DemoProperties;

/**
 * A validating admission webhook for Provisioner resources: it admits only the
 * provisioners the demo configures. Its path is declared in {@code application.yaml}
 * under {@code controller.observability.kubernetes.webhooks.admission-paths}, so its
 * requests are recorded as {@code controller_runtime_webhook_*}.
 */
@RestController
class ProvisionerValidationWebhook {

	static final String PATH = "/validate-provisioners";

	private final Set<String> provisioners;

	ProvisionerValidationWebhook(DemoProperties properties) {
		this.provisioners = Set.copyOf(properties.getProvisioners().keySet());
	}

	@PostMapping(path = PATH, consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
	String validate(@RequestBody String body) {
		AdmissionReview review = Serialization.unmarshal(body, AdmissionReview.class);
		boolean known = this.provisioners.contains(review.getRequest().getName());
		AdmissionResponseBuilder response = new AdmissionResponseBuilder().withUid(review.getRequest().getUid())
			.withAllowed(known);
		if (!known) {
			response.withStatus(new StatusBuilder().withCode(403)
				.withMessage("unknown provisioner " + review.getRequest().getName() + "; known: " + this.provisioners)
				.build());
		}
		review.setResponse(response.build());
		review.setRequest(null);
		return Serialization.asJson(review);
	}

}
