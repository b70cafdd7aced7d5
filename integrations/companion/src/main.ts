import { InstanceBase, InstanceStatus, type SomeCompanionConfigField } from '@companion-module/base';
import { actionDefinitions, type ActionDeps, type ActionsSchema } from './actions.js';
import { Arming } from './arming.js';
import { BridgeClient } from './bridge-client.js';
import { bridgeBaseUrl, getConfigFields, type ModuleConfig, type ModuleSecrets } from './config.js';
import { feedbackDefinitions, feedbacksOf, type FeedbackId, type FeedbacksSchema } from './feedbacks.js';
import { presets } from './presets.js';
import { emptySnapshot, type Snapshot } from './snapshot.js';
import { BridgeSync, type Source } from './sync.js';
import { upgradeScripts } from './upgrades.js';
import { variableDefinitions, variableValues, type VariablesSchema } from './variables.js';

export type ModuleSchema = {
  config: ModuleConfig;
  secrets: ModuleSecrets;
  actions: ActionsSchema;
  feedbacks: FeedbacksSchema;
  variables: VariablesSchema;
};

export { upgradeScripts as UpgradeScripts };

const statusOf = {
  ok: InstanceStatus.Ok,
  connecting: InstanceStatus.Connecting,
  failure: InstanceStatus.ConnectionFailure,
} as const;

/**
 * Studio Bridge in Companion (DESIGN §5.6): the bridge's state as variables and feedbacks, kept
 * live from GET /events, and its actions on buttons, all through the bridge's public API.
 */
export default class StudioBridgeInstance extends InstanceBase<ModuleSchema> {
  private client: BridgeClient | null = null;
  private sync: BridgeSync | null = null;
  private snapshot: Snapshot = emptySnapshot();
  private readonly arming = new Arming(() => this.checkFeedbacks('armed'));
  private variables: Partial<VariablesSchema> = {};
  /** The dropdown choices the action definitions were last sent with. */
  private actionChoices = '';

  async init(config: ModuleConfig, _isFirstInit: boolean, secrets: ModuleSecrets): Promise<void> {
    this.setVariableDefinitions(variableDefinitions);
    this.connect(config, secrets);
  }

  async configUpdated(config: ModuleConfig, secrets: ModuleSecrets): Promise<void> {
    this.connect(config, secrets);
  }

  async destroy(): Promise<void> {
    this.sync?.stop();
    this.arming.clear();
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return getConfigFields();
  }

  private connect(config: ModuleConfig, secrets: ModuleSecrets | undefined): void {
    this.sync?.stop();
    this.arming.clear();
    this.snapshot = emptySnapshot();
    const apiKey = secrets?.apiKey?.trim() ?? '';
    if (!apiKey) {
      this.client = null;
      this.sync = null;
      this.updateStatus(InstanceStatus.BadConfig, 'Set the API key (the bridge’s BRIDGE_API_KEY)');
    } else {
      this.client = new BridgeClient(bridgeBaseUrl(config), apiKey);
      this.sync = new BridgeSync(this.client, this.snapshot, {
        onStatus: (status, message) => this.updateStatus(statusOf[status], message),
        onChange: (sources) => this.changed(sources),
        log: (level, message) => this.log(level, message),
      });
    }
    this.defineEverything();
    this.sync?.start();
  }

  private defineEverything(): void {
    this.defineActions();
    this.setFeedbackDefinitions(feedbackDefinitions(this.snapshot, this.arming));
    const { structure, definitions } = presets(this.label);
    this.setPresetDefinitions(structure, definitions);
    this.publishVariables();
  }

  private defineActions(): void {
    const definitions = actionDefinitions(this.actionDeps(), new Date());
    this.actionChoices = choicesOf(definitions);
    this.setActionDefinitions(definitions);
  }

  private actionDeps(): ActionDeps {
    return {
      client: () => this.client,
      snapshot: this.snapshot,
      arming: this.arming,
      refresh: async (sources) => this.sync?.refresh(sources),
      log: (level, message) => this.log(level, message),
    };
  }

  /** Parts of the snapshot were read again: variables, feedbacks and choices follow. */
  private changed(sources: Source[]): void {
    this.publishVariables();
    const feedbacks = new Set<FeedbackId>(sources.flatMap((source) => feedbacksOf[source]));
    if (feedbacks.size > 0) {
      const [first, ...rest] = feedbacks;
      this.checkFeedbacks(first!, ...rest);
    }
    if (sources.includes('posts') || sources.includes('broadcasts')) {
      // The dropdowns list the broadcasts and posts: sent again only when they changed.
      const definitions = actionDefinitions(this.actionDeps(), new Date());
      if (choicesOf(definitions) !== this.actionChoices) {
        this.actionChoices = choicesOf(definitions);
        this.setActionDefinitions(definitions);
      }
    }
  }

  /** Sends only the variables whose value changed. */
  private publishVariables(): void {
    const values = variableValues(this.snapshot, new Date());
    const changed: Partial<VariablesSchema> = {};
    for (const id of Object.keys(values) as (keyof VariablesSchema)[]) {
      if (this.variables[id] !== values[id]) Object.assign(changed, { [id]: values[id] });
    }
    if (Object.keys(changed).length === 0) return;
    this.variables = values;
    this.setVariableValues(changed);
  }
}

function choicesOf(definitions: ReturnType<typeof actionDefinitions>): string {
  return JSON.stringify([definitions.end_broadcast, definitions.post_now].map((d) => (d ? d.options : null)));
}
