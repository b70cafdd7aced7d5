/**
 * A Companion host for one module instance, run by the tests as a Node 22 child process
 * (client.ts). It does what Companion does with a connection, through @companion-module/base's
 * own host API: builds the `InstanceContext` the module's constructor takes, calls init /
 * configUpdated / destroy, keeps the definitions the module sends, runs action callbacks with
 * their options (Companion variables in `useVariables` text fields replaced, as Companion does),
 * and evaluates feedback instances again whenever the module asks (checkFeedbacks). Every change
 * of status, variable or feedback value is reported to the parent with its time.
 *
 * argv[2]: the module's entry (its default export, the instance class; `UpgradeScripts`).
 */
import type {
  CompanionActionDefinition,
  CompanionFeedbackDefinition,
  CompanionPresetDefinitions,
  CompanionPresetSection,
  InstanceBase,
  InstanceConstructor,
  InstanceTypes,
  JsonValue,
} from '@companion-module/base';
import type { InstanceContext } from '@companion-module/base/host-api';
import { isDeepStrictEqual } from 'node:util';
import { CONNECTION_LABEL, now, type Definitions, type HostCommand, type HostMessage } from './protocol.js';

const send = (message: HostMessage) => process.send!(message);

globalThis.COMPANION_LOGGER = (_source, level, message) => send({ kind: 'log', level, message, at: now() });

const entry = process.argv[2];
if (!entry) throw new Error('usage: host.ts <module entry>');
const loaded = (await import(entry)) as { default: InstanceConstructor; UpgradeScripts?: unknown[] };

let actions: Record<string, CompanionActionDefinition | false | undefined> = {};
let feedbackDefinitions: Record<string, CompanionFeedbackDefinition | false | undefined> = {};
let variableIds: string[] = [];
let presets: { structure: CompanionPresetSection[]; definitions: CompanionPresetDefinitions } = {
  structure: [],
  definitions: {},
};
const variables: Record<string, JsonValue | undefined> = {};
/** The feedbacks placed on buttons (by the test), with their last value. */
const placed = new Map<string, { feedbackId: string; options: Record<string, JsonValue>; value?: unknown }>();

async function evaluate(ids: Iterable<string>): Promise<void> {
  for (const id of ids) {
    const instance = placed.get(id);
    const definition = instance ? feedbackDefinitions[instance.feedbackId] : undefined;
    if (!instance || !definition) continue;
    const value = await definition.callback(
      {
        type: definition.type,
        id,
        controlId: `control-${id}`,
        feedbackId: instance.feedbackId,
        options: instance.options,
        previousOptions: null,
      },
      { type: 'feedback' },
    );
    if (!isDeepStrictEqual(value, instance.value)) {
      instance.value = value;
      send({ kind: 'feedback', id, value, at: now() });
    }
  }
}
const ofTypes = (types: readonly string[]) =>
  [...placed].filter(([, instance]) => types.includes(instance.feedbackId)).map(([id]) => id);

/** `$(bridge:next_filename)` → the variable's value, as Companion parses a useVariables field. */
const parseVariables = (text: string) =>
  text.replace(/\$\(([^:)]+):([^)]+)\)/g, (whole, label: string, id: string) =>
    label === CONNECTION_LABEL ? String(variables[id] ?? '') : whole,
  );

const context: InstanceContext<InstanceTypes> = {
  _isInstanceContext: true,
  id: 'studio-bridge-test',
  label: CONNECTION_LABEL,
  upgradeScripts: (loaded.UpgradeScripts ?? []) as InstanceContext<InstanceTypes>['upgradeScripts'],
  saveConfig: () => undefined,
  updateStatus: (status, message) => send({ kind: 'status', status, message, at: now() }),
  oscSend: () => undefined,
  recordAction: () => undefined,
  setActionDefinitions: (definitions) => void (actions = definitions),
  subscribeActions: () => undefined,
  unsubscribeActions: () => undefined,
  setFeedbackDefinitions: (definitions) => {
    feedbackDefinitions = definitions;
    void evaluate(placed.keys());
  },
  unsubscribeFeedbacks: () => undefined,
  checkFeedbacks: (types) => void evaluate(ofTypes(types)),
  checkAllFeedbacks: () => void evaluate(placed.keys()),
  checkFeedbacksById: (ids) => void evaluate(ids),
  setPresetDefinitions: (structure, definitions) => void (presets = { structure, definitions }),
  setVariableDefinitions: (definitions) => void (variableIds = Object.keys(definitions)),
  setVariableValues: (values) => {
    Object.assign(variables, values);
    send({ kind: 'variables', values: { ...values }, at: now() });
  },
  getVariableValue: (id) => variables[id],
  sharedUdpSocketHandlers: new Map(),
  sharedUdpSocketJoin: () => Promise.reject(new Error('no UDP in the test host')),
  sharedUdpSocketLeave: () => Promise.resolve(),
  sharedUdpSocketSend: () => Promise.reject(new Error('no UDP in the test host')),
};

let instance: InstanceBase<InstanceTypes> | null = null;
const need = () => {
  if (!instance) throw new Error('init first');
  return instance;
};

async function handle(command: HostCommand): Promise<unknown> {
  switch (command.cmd) {
    case 'init':
      instance = new loaded.default(context);
      await instance.init(command.config, true, command.secrets);
      return null;
    case 'configUpdated':
      await need().configUpdated(command.config, command.secrets);
      return null;
    case 'addFeedback':
      placed.set(command.id, {
        feedbackId: command.feedbackId,
        options: command.options as Record<string, JsonValue>,
      });
      await evaluate([command.id]);
      return placed.get(command.id)?.value;
    case 'runAction': {
      const definition = actions[command.actionId];
      if (!definition) throw new Error(`no action ${command.actionId}`);
      const options: Record<string, JsonValue> = {};
      for (const field of definition.options) {
        const given = command.options[field.id] as JsonValue | undefined;
        const value = given ?? ('default' in field ? (field.default as JsonValue) : undefined);
        if (value === undefined) continue;
        options[field.id] =
          field.type === 'textinput' && field.useVariables && typeof value === 'string'
            ? parseVariables(value)
            : value;
      }
      await definition.callback(
        { id: 'action-1', controlId: 'control-1', actionId: command.actionId, options, surfaceId: 'test' },
        { type: 'action', setCustomVariableValue: () => undefined },
      );
      return null;
    }
    case 'definitions': {
      const described: Definitions = {
        actions: Object.fromEntries(
          Object.entries(actions).flatMap(([id, definition]) =>
            definition
              ? [[id, { name: definition.name, options: JSON.parse(JSON.stringify(definition.options)) }]]
              : [],
          ),
        ),
        feedbacks: Object.keys(feedbackDefinitions),
        variables: variableIds,
        presets: JSON.parse(JSON.stringify(presets)),
      };
      return described;
    }
    case 'destroy':
      await instance?.destroy();
      instance = null;
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (message: HostCommand & { seq: number }) => {
  handle(message).then(
    (value) => send({ kind: 'reply', seq: message.seq, ok: true, value: value ?? null }),
    (error: unknown) =>
      send({
        kind: 'reply',
        seq: message.seq,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});
send({ kind: 'log', level: 'debug', message: `host ready on Node ${process.version}`, at: now() });
