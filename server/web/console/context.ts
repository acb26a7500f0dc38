/** What every page reads: the account (session, sign-out, announcements) and, inside a project, its client and the person's abilities there. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AccountClient } from '../../../src/client/account.js';
import type { ParlanceClient } from '../../../src/client/client.js';
import type { AccountSession, Role } from '../../../src/client/types.js';

export type Ability = 'push' | 'pull' | 'read' | 'write' | 'manage';

export interface AccountContextValue {
  account: AccountClient;
  /** Undefined while signed out. */
  session: AccountSession | undefined;
  refreshSession(): Promise<AccountSession | undefined>;
  setSession(session: AccountSession | undefined): void;
  signOut(): Promise<void>;
  /** Says `message` in the polite live region (screen readers announce it without moving focus). */
  announce(message: string): void;
}

export interface ProjectContextValue {
  projectId: string;
  project: AccountSession['projects'][number];
  organisation: AccountSession['organisations'][number] | undefined;
  client: ParlanceClient;
  role: Role;
  abilities: readonly string[];
  can(ability: Ability): boolean;
}

export const AccountContext = createContext<AccountContextValue | undefined>(undefined);
export const ProjectContext = createContext<ProjectContextValue | undefined>(undefined);

export function useAccount(): AccountContextValue {
  const value = useContext(AccountContext);
  if (!value) throw new Error('useAccount outside <AccountContext.Provider>');
  return value;
}

export function useProject(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error('useProject outside <ProjectContext.Provider>');
  return value;
}
