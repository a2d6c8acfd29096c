package dev.controllerobservability.demo;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the simulation, under {@code demo}.
 */
@ConfigurationProperties("demo")
public class DemoProperties {

	/**
	 * How the demo runs: "simulation" (in-process pods and provisioning loops) or
	 * "kubernetes" (a Java Operator SDK operator reconciling Provisioner resources and
	 * pending pods through the Kubernetes API).
	 */
	private Mode mode = Mode.SIMULATION;

	/**
	 * Settings of the kubernetes mode.
	 */
	private final Kubernetes kubernetes = new Kubernetes();

	/**
	 * Provisioners to run a provisioning loop for, by name.
	 */
	private Map<String, Provisioner> provisioners = new LinkedHashMap<>();

	/**
	 * Pause between two provisioning rounds of one provisioner.
	 */
	private Duration roundInterval = Duration.ofSeconds(2);

	/**
	 * Most pods that arrive for one provisioner between two rounds.
	 */
	private int maxArrivalsPerRound = 8;

	/**
	 * Shortest simulated latency of launching a node.
	 */
	private Duration minLaunchLatency = Duration.ofMillis(20);

	/**
	 * Longest simulated latency of launching a node.
	 */
	private Duration maxLaunchLatency = Duration.ofMillis(400);

	/**
	 * Most nodes one provisioner keeps; beyond it the oldest is consolidated away.
	 */
	private int maxNodesPerProvisioner = 20;

	public Mode getMode() {
		return this.mode;
	}

	public void setMode(Mode mode) {
		this.mode = mode;
	}

	public Kubernetes getKubernetes() {
		return this.kubernetes;
	}

	public Map<String, Provisioner> getProvisioners() {
		return this.provisioners;
	}

	public void setProvisioners(Map<String, Provisioner> provisioners) {
		this.provisioners = provisioners;
	}

	public Duration getRoundInterval() {
		return this.roundInterval;
	}

	public void setRoundInterval(Duration roundInterval) {
		this.roundInterval = roundInterval;
	}

	public int getMaxArrivalsPerRound() {
		return this.maxArrivalsPerRound;
	}

	public void setMaxArrivalsPerRound(int maxArrivalsPerRound) {
		this.maxArrivalsPerRound = maxArrivalsPerRound;
	}

	public Duration getMinLaunchLatency() {
		return this.minLaunchLatency;
	}

	public void setMinLaunchLatency(Duration minLaunchLatency) {
		this.minLaunchLatency = minLaunchLatency;
	}

	public int getMaxNodesPerProvisioner() {
		return this.maxNodesPerProvisioner;
	}

	public void setMaxNodesPerProvisioner(int maxNodesPerProvisioner) {
		this.maxNodesPerProvisioner = maxNodesPerProvisioner;
	}

	public Duration getMaxLaunchLatency() {
		return this.maxLaunchLatency;
	}

	public void setMaxLaunchLatency(Duration maxLaunchLatency) {
		this.maxLaunchLatency = maxLaunchLatency;
	}

	/**
	 * How the demo runs.
	 */
	public enum Mode {

		/** In-process pods and provisioning loops; no cluster needed. */
		SIMULATION,

		/** An operator reconciling Provisioner resources through the Kubernetes API. */
		KUBERNETES

	}

	/**
	 * Settings of the kubernetes mode.
	 */
	public static class Kubernetes {

		/**
		 * Which API server to use: "embedded" (the fabric8 mock API server in CRUD mode,
		 * started in-process, with pods arriving as in the simulation) or "kubeconfig"
		 * (the cluster of the current kubeconfig context, or the pod's service account).
		 */
		private ApiServer apiServer = ApiServer.EMBEDDED;

		/**
		 * Namespace of the Provisioner resources and pods the embedded API server starts
		 * with.
		 */
		private String namespace = "default";

		/**
		 * Whether the operator patches a Provisioner's status with server-side apply.
		 * Default: true with "kubeconfig", false on the embedded server, which, as any
		 * fabric8 mock API server, does not know server-side apply.
		 */
		private @Nullable Boolean serverSideApply;

		/**
		 * Timings of the leader election on the lease "provisioner-demo".
		 */
		private final LeaderElection leaderElection = new LeaderElection();

		public @Nullable Boolean getServerSideApply() {
			return this.serverSideApply;
		}

		public void setServerSideApply(@Nullable Boolean serverSideApply) {
			this.serverSideApply = serverSideApply;
		}

		public LeaderElection getLeaderElection() {
			return this.leaderElection;
		}

		public ApiServer getApiServer() {
			return this.apiServer;
		}

		public void setApiServer(ApiServer apiServer) {
			this.apiServer = apiServer;
		}

		public String getNamespace() {
			return this.namespace;
		}

		public void setNamespace(String namespace) {
			this.namespace = namespace;
		}

		/**
		 * Timings of the leader election, as client-go's leader election names them.
		 */
		public static class LeaderElection {

			/**
			 * How long a lease holds without renewal before another replica may take it.
			 */
			private Duration leaseDuration = Duration.ofSeconds(15);

			/**
			 * How long the leader keeps trying to renew before it gives the lease up.
			 */
			private Duration renewDeadline = Duration.ofSeconds(10);

			/**
			 * How often each replica tries to acquire or renew the lease.
			 */
			private Duration retryPeriod = Duration.ofSeconds(2);

			public Duration getLeaseDuration() {
				return this.leaseDuration;
			}

			public void setLeaseDuration(Duration leaseDuration) {
				this.leaseDuration = leaseDuration;
			}

			public Duration getRenewDeadline() {
				return this.renewDeadline;
			}

			public void setRenewDeadline(Duration renewDeadline) {
				this.renewDeadline = renewDeadline;
			}

			public Duration getRetryPeriod() {
				return this.retryPeriod;
			}

			public void setRetryPeriod(Duration retryPeriod) {
				this.retryPeriod = retryPeriod;
			}

		}

		/**
		 * Which API server the kubernetes mode uses.
		 */
		public enum ApiServer {

			/** The fabric8 mock API server, in-process. */
			EMBEDDED,

			/** The cluster of the user's kubeconfig or service account. */
			KUBECONFIG

		}

	}

	/**
	 * Settings of one provisioner.
	 */
	public static class Provisioner {

		/**
		 * Share of node launches that fail with insufficient capacity, between 0 and 1.
		 */
		private double launchFailureRate = 0.05;

		/**
		 * Whether pods of this provisioner need GPU instance types.
		 */
		private boolean gpu;

		/**
		 * Chance per round that one of the provisioner's nodes is interrupted.
		 */
		private double interruptionRate = 0.05;

		public double getLaunchFailureRate() {
			return this.launchFailureRate;
		}

		public void setLaunchFailureRate(double launchFailureRate) {
			this.launchFailureRate = launchFailureRate;
		}

		public double getInterruptionRate() {
			return this.interruptionRate;
		}

		public void setInterruptionRate(double interruptionRate) {
			this.interruptionRate = interruptionRate;
		}

		public boolean isGpu() {
			return this.gpu;
		}

		public void setGpu(boolean gpu) {
			this.gpu = gpu;
		}

	}

}
