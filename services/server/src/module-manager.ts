// A module registry with an explicit dependency map (Loki's pkg/loki/modules.go): module ids are
// kebab-case, each declares what it needs, `all` is only a list of dependencies with no code of its own.
// Init runs in dependency order; start in dependency order; stop in reverse. A module whose
// background work dies after start is reported through `onFailure` (dskit's failure listener).

export interface RunningModule {
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /**
   * The module's background work once started (a consumer, relay or timer loop). Asked once, right
   * after start: a rejection before stopAll is the module failing after start; settling otherwise
   * (its loop ending on stop) is not.
   */
  background?(): Promise<unknown>;
}

export interface StartHooks {
  onEvent?: (msg: string, id: string) => void;
  /** After every module's init, before any start (engine checks). */
  afterInit?: () => Promise<void>;
  /** A started module's background work failed; called once per module, never during stopAll. */
  onFailure?: (id: string, err: Error) => void;
}

export interface ModuleDefinition<Ctx> {
  deps: readonly string[];
  /** Builds the module; may read what its dependencies put on the context. Absent for pure groupings. */
  init?: (ctx: Ctx) => Promise<RunningModule | void> | RunningModule | void;
  /** Whether `--target` may name it (infrastructure modules are pulled in, never named). */
  userVisible: boolean;
}

export class UnknownTargetError extends Error {}

export class ModuleManager<Ctx> {
  readonly #modules = new Map<string, ModuleDefinition<Ctx>>();
  readonly #started: { id: string; module: RunningModule }[] = [];
  /** Set by stopAll: a loop that ends while its module stops is not a failure. */
  #stopping = false;

  register(id: string, definition: ModuleDefinition<Ctx>): this {
    if (this.#modules.has(id)) throw new Error(`module ${id} registered twice`);
    this.#modules.set(id, definition);
    return this;
  }

  /** Target names a person may pass to --target. */
  targets(): string[] {
    return [...this.#modules].filter(([, d]) => d.userVisible).map(([id]) => id);
  }

  /** Parse `--target=a,b` into module ids, rejecting unknown ones with every problem listed. */
  parseTargets(value: string): string[] {
    const names = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (names.length === 0) throw new UnknownTargetError('--target: at least one target is required');
    const visible = new Set(this.targets());
    const unknown = names.filter((n) => !visible.has(n));
    if (unknown.length > 0) {
      throw new UnknownTargetError(
        unknown
          .map((n) => `--target: unknown target "${n}" (choose from ${[...visible].join(', ')})`)
          .join('\n'),
      );
    }
    return [...new Set(names)];
  }

  /** Every module the targets need, dependencies before dependents (a stable topological order). */
  resolve(targets: readonly string[]): string[] {
    const order: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (id: string, path: string[]): void => {
      const def = this.#modules.get(id);
      if (!def) throw new Error(`module ${path.at(-1) ?? '?'} depends on unknown module ${id}`);
      const s = state.get(id);
      if (s === 'done') return;
      if (s === 'visiting') throw new Error(`module dependency cycle: ${[...path, id].join(' -> ')}`);
      state.set(id, 'visiting');
      for (const dep of def.deps) visit(dep, [...path, id]);
      state.set(id, 'done');
      order.push(id);
    };
    for (const t of targets) visit(t, []);
    return order;
  }

  /** Init then start every module the targets need; on failure stop what started, then rethrow. */
  async startAll(targets: readonly string[], ctx: Ctx, hooks: StartHooks = {}): Promise<void> {
    const { onEvent } = hooks;
    const order = this.resolve(targets);
    const running: { id: string; module: RunningModule }[] = [];
    try {
      for (const id of order) {
        const module = (await this.#modules.get(id)!.init?.(ctx)) ?? {};
        running.push({ id, module });
      }
      await hooks.afterInit?.();
      for (const entry of running) {
        await entry.module.start?.();
        this.#started.push(entry);
        onEvent?.('module started', entry.id);
        this.#watch(entry.id, entry.module, hooks.onFailure);
      }
    } catch (err) {
      // Modules that were built but never started still hold resources (pools, clients): stop them too.
      for (const entry of running) if (!this.#started.includes(entry)) this.#started.push(entry);
      await this.stopAll(onEvent);
      throw err;
    }
  }

  #watch(id: string, module: RunningModule, onFailure: StartHooks['onFailure']): void {
    const work = module.background?.();
    // Always handled: an unwatched rejection would otherwise end the process without a graceful stop.
    work?.catch((err: unknown) => {
      if (this.#stopping) return;
      onFailure?.(id, err instanceof Error ? err : new Error(String(err)));
    });
  }

  /** Stop in reverse start order; every module gets its stop even when an earlier one fails. */
  async stopAll(onEvent?: (msg: string, id: string) => void): Promise<Error[]> {
    this.#stopping = true;
    const errors: Error[] = [];
    while (this.#started.length > 0) {
      const { id, module } = this.#started.pop()!;
      try {
        await module.stop?.();
        onEvent?.('module stopped', id);
      } catch (err) {
        errors.push(
          new Error(`stopping ${id}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }),
        );
      }
    }
    return errors;
  }
}
