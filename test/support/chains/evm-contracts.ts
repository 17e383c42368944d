/**
 * The contracts the local BSC runs (docs/chains.md § Local chains): an 18-decimal ERC-20 from
 * OpenZeppelin 5 with an open `mint`, a batch contract that makes several token transfers in one
 * transaction, a contract emitting an ERC-721-shaped `Transfer` (same event signature, the
 * amount indexed) and one emitting ERC-20 `Transfer`s without a `decimals()`. Compiled with solc-js once per process (the optimizer off: gas does not matter
 * here, start-up time does) and kept in memory.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';
import type { Abi, Hex } from 'viem';

const ROOT = path.resolve(__dirname, '../../..');

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// An ERC-20 with 18 decimals that anyone may mint: a stand-in for BSC's USDT and USDC.
contract TestToken is ERC20 {
    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {}
    function mint(address to, uint256 amount) external { _mint(to, amount); }
}

/// Several transfers of one token in one transaction, from the caller (who approved this contract).
contract TransferBatch {
    function pay(IERC20 token, address[] calldata to, uint256[] calldata amounts) external {
        require(to.length == amounts.length, "lengths differ");
        for (uint256 i = 0; i < to.length; i++) {
            require(token.transferFrom(msg.sender, to[i], amounts[i]), "transfer refused");
        }
    }
}

/// Emits an ERC-721 Transfer: the ERC-20 event's topic, but three indexed arguments and no data.
contract NftTransferEmitter {
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    function emitTransfer(address to, uint256 tokenId) external { emit Transfer(msg.sender, to, tokenId); }
}

/// Emits an ERC-20-shaped Transfer but has no decimals(): a token whose decimals cannot be read.
contract BareTransferEmitter {
    event Transfer(address indexed from, address indexed to, uint256 value);
    function emitTransfer(address to, uint256 value) external { emit Transfer(msg.sender, to, value); }
}
`;

/** One compiled contract: its ABI and creation bytecode. */
export interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
}

/** The compiled contracts by name. */
export interface Artifacts {
  readonly TestToken: Artifact;
  readonly TransferBatch: Artifact;
  readonly NftTransferEmitter: Artifact;
  readonly BareTransferEmitter: Artifact;
}

let cached: Artifacts | undefined;

/** Resolves `@openzeppelin/...` imports from node_modules. */
function readImport(importPath: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(importPath, { paths: [ROOT] }), 'utf8') };
  } catch (error) {
    return { error: String(error) };
  }
}

/** Compiles the contracts (once per process; later calls return the same artifacts). Throws on a compiler error. */
export function contractArtifacts(): Artifacts {
  if (cached) return cached;
  const input = {
    language: 'Solidity',
    sources: { 'Local.sol': { content: SOURCE } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const pick = (name: string): Artifact => {
    const contract = output.contracts['Local.sol']![name]!;
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  };
  cached = { TestToken: pick('TestToken'), TransferBatch: pick('TransferBatch'), NftTransferEmitter: pick('NftTransferEmitter'),
    BareTransferEmitter: pick('BareTransferEmitter') };
  return cached;
}
