package dev.controllerobservability.internal.test;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionRequestBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionResponseBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReviewBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The JSON of the reviews the API server sends webhooks, and of their answers, for the
 * webhook tests of the servlet and reactive stacks. Needs fabric8 on the class path.
 */
public final class WebhookReviews {

	private WebhookReviews() {
	}

	/**
	 * An {@code AdmissionReview} request for an object.
	 * @param name the object's name, which the test handlers act on
	 * @return the JSON
	 */
	public static String admission(String name) {
		return Serialization.asJson(new AdmissionReviewBuilder()
			.withRequest(new AdmissionRequestBuilder().withUid("uid-" + name).withName(name).build())
			.build());
	}

	/**
	 * A {@code ConversionReview} request.
	 * @param desiredApiVersion the version to convert to, which the test handlers act on
	 * @return the JSON
	 */
	public static String conversion(String desiredApiVersion) {
		return Serialization.asJson(new ConversionReviewBuilder()
			.withRequest(new ConversionRequestBuilder().withUid("uid").withDesiredAPIVersion(desiredApiVersion).build())
			.build());
	}

	/**
	 * The answer admitting a review's object.
	 * @param review the review received
	 * @return the JSON of the review with its response
	 */
	public static String allow(AdmissionReview review) {
		review.setResponse(
				new AdmissionResponseBuilder().withUid(review.getRequest().getUid()).withAllowed(true).build());
		review.setRequest(null);
		return Serialization.asJson(review);
	}

	/**
	 * The answer to a conversion review, converting no object.
	 * @param review the review received
	 * @return the JSON of the review with its response
	 */
	public static String converted(ConversionReview review) {
		review.setResponse(new ConversionResponseBuilder().withUid(review.getRequest().getUid())
			.withResult(new StatusBuilder().withStatus("Success").build())
			.build());
		review.setRequest(null);
		return Serialization.asJson(review);
	}

}
